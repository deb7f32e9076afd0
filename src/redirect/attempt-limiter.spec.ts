import { AttemptLimiter, PASSWORD_ATTEMPTS, PASSWORD_WINDOW_MS } from './attempt-limiter';

describe('AttemptLimiter', () => {
  const start = 1_700_000_000_000;

  function failTimes(limiter: AttemptLimiter, key: string, times: number, now = start): void {
    for (let attempt = 0; attempt < times; attempt += 1) limiter.fail(key, now);
  }

  it('allows 5 failures per 15 minutes', () => {
    expect(PASSWORD_ATTEMPTS).toBe(5);
    expect(PASSWORD_WINDOW_MS).toBe(15 * 60_000);
  });

  it('allows attempts until the 5th failure, then says how long to wait', () => {
    const limiter = new AttemptLimiter();
    expect(limiter.retryAfter('ip|1', start)).toBe(0);
    failTimes(limiter, 'ip|1', 4);
    expect(limiter.retryAfter('ip|1', start)).toBe(0);
    limiter.fail('ip|1', start);
    expect(limiter.retryAfter('ip|1', start)).toBe(PASSWORD_WINDOW_MS);
    expect(limiter.retryAfter('ip|1', start + 60_000)).toBe(PASSWORD_WINDOW_MS - 60_000);
  });

  it('counts the window from the first failure, not the last', () => {
    const limiter = new AttemptLimiter();
    limiter.fail('ip|1', start);
    failTimes(limiter, 'ip|1', 4, start + 10 * 60_000);
    expect(limiter.retryAfter('ip|1', start + 10 * 60_000)).toBe(5 * 60_000);
  });

  it('opens again once the window has passed, with a fresh count', () => {
    const limiter = new AttemptLimiter();
    failTimes(limiter, 'ip|1', 5);
    expect(limiter.retryAfter('ip|1', start + PASSWORD_WINDOW_MS - 1)).toBe(1);
    expect(limiter.retryAfter('ip|1', start + PASSWORD_WINDOW_MS)).toBe(0);
    const later = start + PASSWORD_WINDOW_MS;
    limiter.fail('ip|1', later);
    expect(limiter.retryAfter('ip|1', later)).toBe(0);
    failTimes(limiter, 'ip|1', 4, later);
    expect(limiter.retryAfter('ip|1', later)).toBe(PASSWORD_WINDOW_MS);
  });

  it('keeps each key apart', () => {
    const limiter = new AttemptLimiter();
    failTimes(limiter, 'ip-a|1', 5);
    expect(limiter.retryAfter('ip-a|1', start)).toBeGreaterThan(0);
    expect(limiter.retryAfter('ip-b|1', start)).toBe(0);
    expect(limiter.retryAfter('ip-a|2', start)).toBe(0);
  });

  it('clears the failures of a key on success', () => {
    const limiter = new AttemptLimiter();
    failTimes(limiter, 'ip|1', 4);
    limiter.succeed('ip|1');
    failTimes(limiter, 'ip|1', 4);
    expect(limiter.retryAfter('ip|1', start)).toBe(0);
    failTimes(limiter, 'ip|1', 5);
    limiter.succeed('ip|1');
    expect(limiter.retryAfter('ip|1', start)).toBe(0);
  });

  it('uses the clock when no time is given', () => {
    const limiter = new AttemptLimiter();
    failTimes(limiter, 'ip|1', 5, Date.now());
    const wait = limiter.retryAfter('ip|1');
    expect(wait).toBeGreaterThan(PASSWORD_WINDOW_MS - 5_000);
    expect(wait).toBeLessThanOrEqual(PASSWORD_WINDOW_MS);
  });
});
