/**
 * The waits after each failed attempt of a webhook delivery: the first retry within 10 s, then growing, 8 attempts
 * over 27 h 35 min (contract §10: at least 8 over at least 24 hours). After the 8th, the delivery has failed.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When to try again after attempt number `attempt` failed at `now`; null when it was the last. */
export function nextWebhookAttempt(attempt: number, now: number): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : new Date(now + delay);
}

/** A stream is never given up on: its broker is retried every second at first, at most every minute. */
export function nextStreamAttempt(attempt: number, now: number): Date {
  return new Date(now + Math.min(60_000, 1000 * 2 ** Math.min(attempt - 1, 6)));
}
