import { ThrottlerStorageService } from '@nestjs/throttler';
import { AttemptLimiter, PASSWORD_ATTEMPTS, PASSWORD_WINDOW_MS } from './attempt-limiter';

describe('AttemptLimiter', () => {
  let storage: ThrottlerStorageService;
  let limiter: AttemptLimiter;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    storage = new ThrottlerStorageService();
    limiter = new AttemptLimiter(storage);
  });

  afterEach(() => {
    storage.onApplicationShutdown();
    jest.useRealTimers();
  });

  async function attempts(key: string, times: number): Promise<number[]> {
    const waits: number[] = [];
    for (let attempt = 0; attempt < times; attempt += 1) waits.push(await limiter.attempt(key));
    return waits;
  }

  it('allows 5 attempts per 15 minutes', () => {
    expect(PASSWORD_ATTEMPTS).toBe(5);
    expect(PASSWORD_WINDOW_MS).toBe(15 * 60_000);
  });

  it('lets 5 attempts through, then says how long to wait', async () => {
    expect(await attempts('ip|1', 5)).toEqual([0, 0, 0, 0, 0]);
    expect(await limiter.attempt('ip|1')).toBe(PASSWORD_WINDOW_MS);
    jest.advanceTimersByTime(60_000);
    expect(await limiter.attempt('ip|1')).toBe(PASSWORD_WINDOW_MS - 60_000);
  });

  it('does not lengthen the wait for attempts made while waiting', async () => {
    await attempts('ip|1', 6);
    jest.advanceTimersByTime(10 * 60_000);
    expect(await attempts('ip|1', 3)).toEqual(Array<number>(3).fill(5 * 60_000));
  });

  it('opens again once the wait is over, with a fresh count', async () => {
    await attempts('ip|1', 6);
    jest.advanceTimersByTime(PASSWORD_WINDOW_MS);
    expect(await attempts('ip|1', 5)).toEqual([0, 0, 0, 0, 0]);
    expect(await limiter.attempt('ip|1')).toBe(PASSWORD_WINDOW_MS);
  });

  it('forgets attempts older than the window', async () => {
    await attempts('ip|1', 4);
    jest.advanceTimersByTime(PASSWORD_WINDOW_MS);
    expect(await attempts('ip|1', 5)).toEqual([0, 0, 0, 0, 0]);
  });

  it('keeps each key apart', async () => {
    await attempts('ip-a|1', 6);
    expect(await limiter.attempt('ip-a|1')).toBeGreaterThan(0);
    expect(await limiter.attempt('ip-b|1')).toBe(0);
    expect(await limiter.attempt('ip-a|2')).toBe(0);
  });

  it("keeps its counts apart from the storage's other limits", async () => {
    await storage.increment('ip|1', 60_000, 1, 60_000, 'visitor');
    await storage.increment('ip|1', 60_000, 1, 60_000, 'visitor');
    expect(await limiter.attempt('ip|1')).toBe(0);
  });
});
