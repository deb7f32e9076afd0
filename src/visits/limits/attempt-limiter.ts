import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';

/** How many password attempts a visitor gets per link, and for how long. */
export const PASSWORD_ATTEMPTS = 5;
export const PASSWORD_WINDOW_MS = 15 * 60_000;

/**
 * Password attempts per visitor and link, counted in the throttler's storage beside the API's and the visitor
 * routes' limits: one storage serves every limit, and one shared by several instances limits them together. Every
 * attempt counts, before the slow check, so that guesses sent all at once cannot all pass; past the fifth within
 * a quarter hour, the visitor waits a quarter hour. A right password is not an exception: it earns the visitor a
 * token, so whoever knows it has no reason to send it again.
 */
@Injectable()
export class AttemptLimiter {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  /** Counts an attempt of `key`: 0 when it may be checked, else how many milliseconds the visitor must wait. */
  async attempt(key: string): Promise<number> {
    const record = await this.storage.increment(
      `password:${key}`,
      PASSWORD_WINDOW_MS,
      PASSWORD_ATTEMPTS,
      PASSWORD_WINDOW_MS,
      'password',
    );
    return record.isBlocked ? record.timeToBlockExpire * 1000 : 0;
  }
}
