import type { Clock } from '../../src/common/clock';

/** The service's clock, moved by the test instead of waited for: retries, leases and retention come at once. */
export class TestClock implements Clock {
  private at = Date.now();

  now(): number {
    return this.at;
  }

  advance(ms: number): void {
    this.at += ms;
  }

  /** Back to the real time. */
  reset(): void {
    this.at = Date.now();
  }
}
