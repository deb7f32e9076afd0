import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { clicksConfig, type ClicksConfig } from '../config/app-config';
import { ClickStore } from './click-store.repository';

/** Months made ahead of the current one. */
const MONTHS_AHEAD = 2;
/** How often partitions are made and old clicks dropped. */
const MAINTENANCE_MS = 60 * 60_000;

/** The first instant of the UTC month `offset` months from the one `moment` falls in. */
export function monthStart(moment: Date, offset = 0): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + offset, 1));
}

/**
 * Where the raw clicks a retention of `days` keeps at `now` begin: the start of the month `days` days ago, so that
 * only months that ended at least `days` days ago are dropped; null without retention.
 */
export function retainedFrom(now: Date, days: number): Date | null {
  if (days <= 0) return null;
  return monthStart(new Date(now.getTime() - days * 86_400_000));
}

/**
 * Keeps the raw clicks' monthly partitions: the current month's and the next two exist before any click needs them
 * (at start, then every hour), and with `CLICK_RETENTION_DAYS` the months wholly older than the retention are
 * dropped, a partition at a time. Every instance runs it; the database serialises them (an advisory lock), and
 * each DDL statement gives up rather than wait long for a lock, so that visits' click batches never queue behind
 * it: what was not done is done at the next round.
 */
@Injectable()
export class ClickPartitions implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ClickPartitions.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: ClickStore,
    @Inject(clicksConfig.KEY) private readonly config: ClicksConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.maintain();
    this.timer = setInterval(() => void this.maintain(), MAINTENANCE_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.running;
  }

  /** One round: partitions ahead, then retention. Never throws: a failed round is logged and tried next time. */
  maintain(now: Date = new Date()): Promise<void> {
    this.running ??= this.round(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(now: Date): Promise<void> {
    try {
      const months = Array.from({ length: MONTHS_AHEAD + 1 }, (_, offset) => monthStart(now, offset));
      const dropped = await this.store.maintainPartitions(
        months,
        retainedFrom(now, this.config.clickRetentionDays),
      );
      if (dropped.length > 0) this.logger.log(`Dropped the raw clicks of ${dropped.join(', ')}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Click partitions not maintained this round: ${message}`);
    }
  }
}
