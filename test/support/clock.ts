import type { TestingModuleBuilder } from '@nestjs/testing';
import { CLOCK, type Clock } from '../../src/common/clock';
import {
  EVENT_WORKER_OPTIONS,
  type EventWorker,
  type EventWorkerOptions,
} from '../../src/events/event-worker';

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

/** The app's options for the event tests: this clock, and the event worker's `options` (driven by hand). */
export function onClock(clock: TestClock, options: EventWorkerOptions) {
  return {
    override: (builder: TestingModuleBuilder) =>
      builder
        .overrideProvider(CLOCK)
        .useValue(clock)
        .overrideProvider(EVENT_WORKER_OPTIONS)
        .useValue(options),
  };
}

/** The worker's passes until nothing is left to start (50 at most), then the deliveries under way. */
export async function deliverAll(worker: EventWorker): Promise<void> {
  for (let pass = 0; pass < 50; pass += 1) {
    const more = await worker.tick();
    await worker.drain();
    if (!more) return;
  }
}
