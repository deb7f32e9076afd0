import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { bearerToken, hashApiKey } from '../auth/api-key';

/**
 * Rate limits per API key. It runs before authentication, so that every API response (401 included) carries
 * the X-RateLimit headers; requests without a key are counted per client address.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const key = bearerToken((request as unknown as Request).headers.authorization);
    if (key !== null) return Promise.resolve(`key:${hashApiKey(key)}`);
    return Promise.resolve(`ip:${(request as unknown as Request).ip ?? 'unknown'}`);
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
