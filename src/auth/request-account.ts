import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { AccountsService } from './accounts.service';
import { bearerToken } from './api-key';
import type { ApiCaller } from './owner';

/**
 * The caller of a request's bearer key, looked up once per request however many guards ask (the rate limit
 * asks before authentication does). Keyed by the request's headers, which every guard sees.
 */
@Injectable()
export class RequestAccount {
  private readonly lookups = new WeakMap<IncomingHttpHeaders, Promise<ApiCaller | null>>();

  constructor(private readonly accounts: AccountsService) {}

  of(headers: IncomingHttpHeaders): Promise<ApiCaller | null> {
    let lookup = this.lookups.get(headers);
    if (lookup === undefined) {
      const key = bearerToken(headers.authorization);
      lookup = key === null ? Promise.resolve(null) : this.accounts.findByApiKey(key);
      this.lookups.set(headers, lookup);
    }
    return lookup;
  }
}
