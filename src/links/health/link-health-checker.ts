import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { PeriodicTask } from '../../common/periodic-task';
import { linkChecksConfig, type LinkChecksConfig } from '../../config/app-config';
import { Transactions } from '../../database/transactions';
import { EventOutbox } from '../../events/outbox/event-outbox';
import { MetricsService } from '../../metrics/metrics.service';
import {
  checkLink,
  DEFAULT_LINK_CHECK_OPTIONS,
  type LinkCheckOptions,
  type LinkCheckResult,
} from './link-check';
import { CheckStatus, checkStatusOf } from './link-check.entity';
import { LinkHealthRepository, type ClaimedCheck } from './link-health.repository';

/** How the checker checks and paces itself: the check's own options, and its timings (shorter in tests). */
export interface LinkCheckerOptions {
  check: LinkCheckOptions;
  /** A failed check is tried once more this long after (contract §13: 10 s). */
  retryDelayMs: number;
  /** How often the checker looks for due checks. */
  everyMs: number;
  /** How long a check stays with an instance that stopped working on it before another takes it over. */
  leaseMs: number;
}

export const LINK_CHECKER_OPTIONS = Symbol('LINK_CHECKER_OPTIONS');

export const DEFAULT_LINK_CHECKER_OPTIONS: LinkCheckerOptions = {
  check: DEFAULT_LINK_CHECK_OPTIONS,
  retryDelayMs: 10_000,
  everyMs: 1000,
  leaseMs: 120_000,
};

/** Whose links an instance checks: every workspace's (null), or only some (tests, which share a database). */
export interface LinkCheckScope {
  accountIds(): readonly number[] | null;
}

export const LINK_CHECK_SCOPE = Symbol('LINK_CHECK_SCOPE');

export const EVERY_LINK: LinkCheckScope = { accountIds: () => null };

/** Due rows a claim looks at for each check it has room for: enough to move a busy host's backlog aside. */
const WINDOW_PER_ROOM = 25;
const MIN_WINDOW = 100;
/** Rounds between two prunings of the hosts' spacing rows. */
const PRUNE_EVERY_ROUNDS = 600;

/**
 * Checks links' targets in the background (contract §13), on every instance where `LINK_CHECKS` is on, sharing
 * the work through the database: each round claims as many due checks as the instance has room for
 * (`LINK_CHECK_CONCURRENCY`), each host at most once a second across instances (see the repository's claim). A
 * check that finds the target broken is tried once more 10 s later before the link is called broken; a link that
 * turns broken or recovers emits `link.broken` or `link.recovered`, written with its verdict. A shutdown stops the
 * checks under way and hands them back.
 */
@Injectable()
export class LinkHealthChecker extends PeriodicTask {
  private readonly underway = new Map<number, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly checks: Counter<'result'>;
  private readonly options: LinkCheckerOptions;
  private rounds = 0;
  /** The last claim filled the room it had: more checks are likely due, claimed as soon as room frees up. */
  private backlog = false;
  /** Checks this instance may still start in the current second (`LINK_CHECK_RATE`), and that second. */
  private allowance = 0;
  private second = 0;

  constructor(
    private readonly repository: LinkHealthRepository,
    private readonly transactions: Transactions,
    private readonly outbox: EventOutbox,
    @Inject(linkChecksConfig.KEY) private readonly config: LinkChecksConfig,
    @Inject(LINK_CHECKER_OPTIONS) options: LinkCheckerOptions,
    @Inject(LINK_CHECK_SCOPE) private readonly scope: LinkCheckScope,
    metrics: MetricsService,
  ) {
    super({ everyMs: options.everyMs, failure: 'Link checks not claimed this round' });
    this.options = {
      ...options,
      check: {
        ...options.check,
        allowAddress: config.linkCheckAllowPrivateAddresses ? () => true : options.check.allowAddress,
      },
    };
    this.checks = new Counter({
      name: 'shortlink_link_checks_total',
      help: "Checks of links' targets, by result: ok, broken, unknown (not checkable: refused address, other scheme), retry (failed once, tried again 10 s later).",
      labelNames: ['result'] as const,
      registers: [metrics.registry],
    });
    for (const result of ['ok', 'broken', 'unknown', 'retry']) this.checks.labels(result).inc(0);
  }

  override async onApplicationBootstrap(): Promise<void> {
    if (this.config.linkChecks) await super.onApplicationBootstrap();
  }

  /** Stops claiming, stops the checks under way (each hands its link back), and waits for them. */
  override async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await super.beforeApplicationShutdown();
    await Promise.allSettled([...this.underway.values()]);
  }

  protected async round(): Promise<void> {
    this.rounds += 1;
    if (this.rounds % PRUNE_EVERY_ROUNDS === 0) await this.repository.pruneHosts();
    const room = Math.min(this.config.linkCheckConcurrency - this.underway.size, this.allowed());
    if (room <= 0 || this.stopping.signal.aborted) return;
    const claimed = await this.repository.claim(
      room,
      Math.max(MIN_WINDOW, room * WINDOW_PER_ROOM),
      new Date(Date.now() + this.options.leaseMs),
      this.scope.accountIds(),
    );
    this.backlog = claimed.length >= room;
    this.allowance -= claimed.length;
    for (const check of claimed) {
      const run = this.run(check).finally(() => {
        this.underway.delete(check.linkId);
        this.claimMore();
      });
      this.underway.set(check.linkId, run);
    }
  }

  /**
   * With a backlog, the next claim comes once half the room is free rather than at the next tick: checks of fast
   * sites would otherwise wait for the clock, and a round a second would cap an instance at `LINK_CHECK_CONCURRENCY`
   * checks a second (691,200 a day at 8: fewer than a million links checked daily need). One claim at a time, and
   * no more than `LINK_CHECK_RATE` checks started a second.
   */
  private claimMore(): void {
    if (!this.backlog || this.stopping.signal.aborted || this.allowed() === 0) return;
    if (this.underway.size <= this.config.linkCheckConcurrency / 2) void this.runRound();
  }

  /** The checks left to start in this calendar second: `LINK_CHECK_RATE` a second, the rest waits for the next. */
  private allowed(): number {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.allowance = this.config.linkCheckRate;
    }
    return this.allowance;
  }

  private async run(check: ClaimedCheck): Promise<void> {
    try {
      const result = await checkLink(check.url, this.options.check, this.stopping.signal);
      if (this.stopping.signal.aborted) {
        await this.repository.release([check.linkId]);
        return;
      }
      await this.finish(check, result);
    } catch (error) {
      // Its lease ends and another round takes it again.
      this.logger.warn(
        `A link check was not recorded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Writes a check's verdict, or its second try; a link that turns broken or recovers gets its event with it. */
  private async finish(check: ClaimedCheck, result: LinkCheckResult): Promise<void> {
    if (result.status === 'broken' && check.failures === 0) {
      this.checks.labels('retry').inc();
      await this.repository.retryLater(check, new Date(Date.now() + this.options.retryDelayMs));
      return;
    }
    this.checks.labels(result.status).inc();
    const status = checkStatusOf(result.status);
    const nextAt = new Date(Date.now() + this.config.linkCheckIntervalHours * 3_600_000);
    await this.transactions.run(async (tx) => {
      const before = await this.repository.record(tx, check, {
        status,
        httpStatus: result.httpStatus,
        nextAt,
      });
      const event = eventOf(before, status);
      if (event !== null) await this.outbox.record(tx, check.accountId, event, [check.linkId]);
    });
  }
}

/** The event of a change of verdict: broken from anything else, or ok again after broken. */
function eventOf(before: CheckStatus | null, after: CheckStatus): 'link.broken' | 'link.recovered' | null {
  if (before === null || before === after) return null;
  if (after === CheckStatus.Broken) return 'link.broken';
  if (before === CheckStatus.Broken && after === CheckStatus.Ok) return 'link.recovered';
  return null;
}
