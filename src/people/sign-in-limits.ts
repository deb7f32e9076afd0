import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { clientKey } from '../common/client-address';
import { TooManyAttemptsException } from '../common/exceptions';

/** Failed attempts per email and per client address in {@link WINDOW_MS} (contract §11: at least 5 and 20). */
export const FAILURES_PER_EMAIL = 10;
export const FAILURES_PER_ADDRESS = 50;
/** Attempts of any outcome, a bound on guesses sent all at once, before any of them has failed. */
const ATTEMPTS_PER_EMAIL = 100;
const ATTEMPTS_PER_ADDRESS = 300;
const WINDOW_MS = 15 * 60_000;

/** A storage that can say whether a key is blocked without counting a hit (LimitsStorage does). */
interface BlockAware {
  blockedFor(key: string, throttlerName: string): Promise<number>;
}

/**
 * Sign-in, invitation acceptance and password reset attempts, counted per email and per client address in the
 * limits' storage (shared by every instance with `REDIS_URL`). What blocks is failures: past ten for an email (or
 * fifty from an address) in a quarter hour, every attempt is refused until the quarter hour is out, the right
 * password too, so that guessing on gains nothing; a person who signs in often is never counted for it. Every
 * attempt is also counted, with a far higher bound, against guesses sent all at once.
 */
@Injectable()
export class SignInLimits {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  /** Before an attempt is checked: a 429 with `Retry-After` while its email or address is blocked. */
  async attempt(email: string | null, address: string | undefined): Promise<void> {
    const keys = this.keys(email, address);
    const waits = await Promise.all([
      ...keys.map(({ key }) => this.blockedFor(`${key}:failed`)),
      ...keys.map(({ key, perEmail }) =>
        this.count(`${key}:any`, perEmail ? ATTEMPTS_PER_EMAIL : ATTEMPTS_PER_ADDRESS),
      ),
    ]);
    this.refuse(waits);
  }

  /** After an attempt failed: counted; the one that reaches a limit is refused as the next would be. */
  async failed(email: string | null, address: string | undefined): Promise<void> {
    const waits = await Promise.all(
      this.keys(email, address).map(({ key, perEmail }) =>
        this.count(`${key}:failed`, perEmail ? FAILURES_PER_EMAIL : FAILURES_PER_ADDRESS),
      ),
    );
    this.refuse(waits);
  }

  private keys(email: string | null, address: string | undefined): { key: string; perEmail: boolean }[] {
    const keys = [{ key: `signin:address:${clientKey(address)}`, perEmail: false }];
    // The email is counted by its hash: the limits' store never holds an address book.
    if (email !== null) {
      keys.push({
        key: `signin:email:${createHash('sha256').update(email).digest('base64url')}`,
        perEmail: true,
      });
    }
    return keys;
  }

  private refuse(waits: number[]): void {
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw new TooManyAttemptsException(wait);
  }

  private async count(key: string, limit: number): Promise<number> {
    const record = await this.storage.increment(key, WINDOW_MS, limit, WINDOW_MS, 'signin');
    return record.isBlocked ? record.timeToBlockExpire * 1000 : 0;
  }

  private async blockedFor(key: string): Promise<number> {
    const aware = this.storage as Partial<BlockAware>;
    return typeof aware.blockedFor === 'function' ? aware.blockedFor(key, 'signin') : 0;
  }
}
