import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { RequestAccount } from './request-account';
import { clientKey } from '../common/client-address';

/**
 * Rate limits per API key. It runs before authentication, so that every API response (401 included) carries
 * the X-RateLimit headers. Only a live key has a budget of its own, spent by its requests and its dashboard sessions'
 * alike: requests without either, or with a key that does not authenticate, are counted per client address, so that
 * guessing keys gains no budget, and failures from a shared address never lock a signed-in session out.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly requestAccount: RequestAccount,
  ) {
    super(options, storage, reflector);
  }

  /** A live key's budget, which a dashboard session of that key spends too; else the client address's. */
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const { headers, ip } = request as unknown as Request;
    const caller = await this.requestAccount.of(headers);
    return caller === null ? `ip:${clientKey(ip)}` : `key:${caller.keyId}`;
  }

  /** One budget per key across all routes: the stock key is per route handler, which multiplies the limit. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  /** The 429 carries the limit headers too, as every API response does (the stock guard sends Retry-After only). */
  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const response = context.switchToHttp().getResponse<Response>();
    response.header('X-RateLimit-Limit', String(detail.limit));
    response.header('X-RateLimit-Remaining', '0');
    await super.throwThrottlingException(context, detail);
  }
}
