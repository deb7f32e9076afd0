import { Inject, Injectable } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task';
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
export class ClickPartitions extends PeriodicTask {
  constructor(
    private readonly store: ClickStore,
    @Inject(clicksConfig.KEY) private readonly config: ClicksConfig,
  ) {
    super({
      everyMs: MAINTENANCE_MS,
      failure: 'Click partitions not maintained this round',
      awaitFirstRound: true,
    });
  }

  /** A round now (or right after the one under way). Never throws: a failed round is logged and tried next time. */
  maintain(): Promise<void> {
    return this.runRound();
  }

  /** One round: partitions ahead, then retention. */
  protected async round(): Promise<void> {
    const now = new Date();
    const months = Array.from({ length: MONTHS_AHEAD + 1 }, (_, offset) => monthStart(now, offset));
    const dropped = await this.store.maintainPartitions(
      months,
      retainedFrom(now, this.config.clickRetentionDays),
    );
    if (dropped.length > 0) this.logger.log(`Dropped the raw clicks of ${dropped.join(', ')}`);
  }
}
