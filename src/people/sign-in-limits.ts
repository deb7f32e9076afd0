import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { clientKey } from '../common/client-address';
import { TooManyAttemptsException } from '../common/exceptions';

/** Attempts per email and per client address in {@link WINDOW_MS} (contract §11: at least 5 and 20). */
export const ATTEMPTS_PER_EMAIL = 10;
export const ATTEMPTS_PER_ADDRESS = 100;
const WINDOW_MS = 15 * 60_000;

/**
 * Sign-in, invitation acceptance and password reset attempts, counted per email and per client address in the
 * limits' storage (shared by every instance with `REDIS_URL`). Every attempt counts, before the slow password check,
 * so that guesses sent all at once cannot all pass; past a limit, the client waits out the quarter hour.
 */
@Injectable()
export class SignInLimits {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  /** Counts an attempt; a 429 with `Retry-After` past either limit. */
  async attempt(email: string | null, address: string | undefined): Promise<void> {
    const counts = [this.count(`signin:address:${clientKey(address)}`, ATTEMPTS_PER_ADDRESS)];
    if (email !== null) {
      // The email is counted by its hash: the limits' store never holds an address book.
      const hash = createHash('sha256').update(email).digest('base64url');
      counts.push(this.count(`signin:email:${hash}`, ATTEMPTS_PER_EMAIL));
    }
    const waits = await Promise.all(counts);
    const wait = Math.max(...waits);
    if (wait > 0) throw new TooManyAttemptsException(wait);
  }

  private async count(key: string, limit: number): Promise<number> {
    const record = await this.storage.increment(key, WINDOW_MS, limit, WINDOW_MS, 'signin');
    return record.isBlocked ? record.timeToBlockExpire * 1000 : 0;
  }
}
