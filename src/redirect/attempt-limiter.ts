import { Injectable } from '@nestjs/common';

interface Window {
  count: number;
  resetAt: number;
}

/** How many password attempts a visitor gets per link, and for how long. */
export const PASSWORD_ATTEMPTS = 5;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
/** A bound on memory under a flood of distinct visitors. */
const MAX_KEYS = 100_000;

/**
 * Fixed-window counters of failed password attempts per visitor and link, in this instance's memory: a guessing
 * visitor is slowed to a handful of tries per quarter hour on each instance.
 */
@Injectable()
export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limit = PASSWORD_ATTEMPTS;
  private readonly windowMs = PASSWORD_WINDOW_MS;

  /** Milliseconds until the visitor may try again, or 0 when an attempt is allowed now. */
  retryAfter(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) return 0;
    return window.count >= this.limit ? window.resetAt - now : 0;
  }

  fail(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      if (this.windows.size >= MAX_KEYS) this.sweep(now);
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      window.count += 1;
    }
  }

  succeed(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full: the oldest entries go first (a Map keeps insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}
