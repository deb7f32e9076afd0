import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request } from 'express';
import { hashApiKey } from '../auth/api-key';

/**
 * Rate limits per API key. It runs before authentication, so that every API response (401 included) carries
 * the X-RateLimit headers; requests without a key are counted per client address.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const header = (request as unknown as Request).headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (match !== null) return Promise.resolve(`key:${hashApiKey(match[1])}`);
    return Promise.resolve(`ip:${(request as unknown as Request).ip ?? 'unknown'}`);
  }
}
