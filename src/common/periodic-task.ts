import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';

export interface PeriodicTaskOptions {
  /** From the start of one round to the next. */
  everyMs: number;
  /** What the log says of a failed round, before its error's message. */
  failure: string;
  /** The application's start waits for the first round (what the first requests need), rather than running beside it. */
  awaitFirstRound?: boolean;
}

/**
 * A service's work done in rounds from the application's start to its shutdown (retention, upkeep): a round at
 * start, then one every `everyMs` on a timer that never keeps the process alive. One round at a time: a round
 * asked for while one runs comes once after it, however often it was asked for. A failed round is logged and the
 * next one tries again. The shutdown stops the timer and waits for the round under way, before the database closes.
 */
export abstract class PeriodicTask implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger = new Logger(this.constructor.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly task: PeriodicTaskOptions) {}

  /** One round of the work. */
  protected abstract round(): Promise<unknown>;

  async onApplicationBootstrap(): Promise<void> {
    this.timer = setInterval(() => void this.runRound(), this.task.everyMs);
    this.timer.unref();
    const first = this.runRound();
    if (this.task.awaitFirstRound === true) await first;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    await (this.queued ?? this.running);
  }

  /** A round now, or once after the one under way; resolved when that round has ended, never rejected. */
  protected runRound(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== null) {
      this.queued ??= this.running.then(() => {
        this.queued = null;
        return this.runRound();
      });
      return this.queued;
    }
    this.running = this.round()
      .then(
        () => undefined,
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          this.logger.warn(`${this.task.failure}: ${message}`);
        },
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
