/** What time it is, for work that schedules itself (retries, retention): a test moves it instead of waiting. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const CLOCK = Symbol('CLOCK');

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
