import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { sameOriginProof, sessionToken } from './session-cookie';
import { AccountsService } from './accounts.service';
import { bearerToken } from './api-key';
import type { ApiCaller } from './owner';

/**
 * The caller of a request, looked up once per request however many guards ask (the rate limit asks before
 * authentication does), keyed by the request's headers, which every guard sees: the bearer key's, or else the
 * dashboard session's when the request carries the session cookie and proves it comes from the dashboard.
 */
@Injectable()
export class RequestAccount {
  private readonly lookups = new WeakMap<IncomingHttpHeaders, Promise<ApiCaller | null>>();
  private readonly appOrigin: string;

  constructor(
    private readonly accounts: AccountsService,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    this.appOrigin = new URL(server.appUrl).origin;
  }

  of(headers: IncomingHttpHeaders): Promise<ApiCaller | null> {
    let lookup = this.lookups.get(headers);
    if (lookup === undefined) {
      lookup = this.lookup(headers);
      this.lookups.set(headers, lookup);
    }
    return lookup;
  }

  /** The caller looked up again, past what this request already found (after its session changed). */
  fresh(headers: IncomingHttpHeaders): Promise<ApiCaller | null> {
    this.lookups.delete(headers);
    return this.of(headers);
  }

  /**
   * Whether the request comes with a session cookie but neither a key nor the dashboard's proof: a request another
   * site made the browser send, refused as such rather than as a missing key.
   */
  crossSite(headers: IncomingHttpHeaders): boolean {
    return (
      headers.authorization === undefined &&
      sessionToken(headers) !== null &&
      !sameOriginProof(headers, this.appOrigin)
    );
  }

  private lookup(headers: IncomingHttpHeaders): Promise<ApiCaller | null> {
    if (headers.authorization !== undefined) {
      const key = bearerToken(headers.authorization);
      return key === null ? Promise.resolve(null) : this.accounts.findByApiKey(key);
    }
    const token = sessionToken(headers);
    if (token === null || !sameOriginProof(headers, this.appOrigin)) return Promise.resolve(null);
    return this.accounts.findBySession(token);
  }
}
