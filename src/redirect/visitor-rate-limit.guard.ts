import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { clientKey } from '../common/client-address';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Pages } from './pages';

const WINDOW_MS = 60_000;

/**
 * Requests per minute per client address (IPv6: per /64) on the visitor routes, kept in the throttler's storage
 * beside the API's limits: no person reaches it, a script hammering links gets the 429 page until the minute ends.
 */
@Injectable()
export class VisitorRateLimitGuard implements CanActivate {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pages: Pages,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.visitorRateLimitPerMinute;
    if (limit === 0) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const record = await this.storage.increment(
      `visitor:${clientKey(request.ip)}`,
      WINDOW_MS,
      limit,
      WINDOW_MS,
      'visitor',
    );
    if (!record.isBlocked) return true;
    this.pages.sendTooManyRequests(http.getResponse<Response>(), record.timeToBlockExpire * 1000);
    return false;
  }
}
