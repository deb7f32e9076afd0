import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { clientKey } from '../common/client-address';
import { visitsConfig, type VisitsConfig } from '../config/app-config';
import { Pages } from './pages';

const WINDOW_MS = 60_000;

/**
 * Requests per minute per client address (IPv6: per /64) on the visitor routes, kept in the throttler's storage
 * beside the API's limits: no person reaches it, a script hammering links waits until the minute ends.
 */
@Injectable()
export class VisitorRateLimit {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
  ) {}

  get enabled(): boolean {
    return this.config.visitorRateLimitPerMinute > 0;
  }

  /** Counts a request of the address: 0 when it may go on, else how many milliseconds it must wait. */
  async hit(address: string | undefined): Promise<number> {
    const limit = this.config.visitorRateLimitPerMinute;
    if (limit === 0) return 0;
    const record = await this.storage.increment(
      `visitor:${clientKey(address)}`,
      WINDOW_MS,
      limit,
      WINDOW_MS,
      'visitor',
    );
    return record.isBlocked ? record.timeToBlockExpire * 1000 : 0;
  }
}

/** The visitor limit on the Nest routes: the 429 page past it. */
@Injectable()
export class VisitorRateLimitGuard implements CanActivate {
  constructor(
    private readonly limit: VisitorRateLimit,
    private readonly pages: Pages,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const wait = await this.limit.hit(http.getRequest<Request>().ip);
    if (wait === 0) return true;
    this.pages.sendTooManyRequests(http.getResponse<Response>(), wait);
    return false;
  }
}
