import {
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { clicksConfig, type ClicksConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { VisitorProfile } from '../targeting/visitor';
import { EventInterest } from '../events/outbox/event-interest';
import { RecentOutage } from '../database/recent-outage';
import {
  BY_TURN,
  ClickRepository,
  type ClickTarget,
  type EventsTaken,
  type PendingClick,
} from './click.repository';
import type { ValueOrPromise } from '../common/value-or-promise';

export { BY_TURN, type PendingClick } from './click.repository';

/** What a click needs of its link to be counted. */
export interface CountedLink {
  id: number;
  /** Null or 0: no limit. */
  clicksLimit: number | null;
  /** The destination each turn of its rotation serves, read by a click that goes {@link BY_TURN} alone. */
  turns: readonly string[];
}

export interface CountedClick {
  /** The rotation index this visit is served, for rotating links. */
  rotation: number | null;
}

interface Claim extends PendingClick {
  resolve: (click: CountedClick | null) => void;
  reject: (error: unknown) => void;
}

/** The most clicks one statement writes. */
const MAX_BATCH = 50_000;
/**
 * Under load, a batch waits this many times as long as the last one took before it is written (but no longer
 * than {@link MAX_GAP_MS}): rollups cost a row per link, dimension and value a batch, so fewer, larger batches
 * keep the database's share of a busy instance's clicks bounded, while a quiet instance still writes every
 * `CLICK_FLUSH_MS`.
 */
const GAP_FACTOR = 3;
const MAX_GAP_MS = 1000;
/** How long a shutdown keeps retrying buffered clicks while the database does not answer. */
const SHUTDOWN_FLUSH_MS = 15_000;
/** Data errors (class 22) cannot succeed on a retry: such a batch is given up after this many tries. */
const MAX_DATA_ERROR_TRIES = 3;
/** Batch ids older than this are forgotten: no retry of a batch lasts that long. */
const BATCH_ID_RETENTION = '1 day';

function sqlState(error: unknown): string {
  const candidate = (error as { driverError?: { code?: unknown }; code?: unknown }) ?? {};
  const code = candidate.driverError?.code ?? candidate.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Counts and records clicks. Links without a limit or rotation: the click joins a buffer written every
 * `CLICK_FLUSH_MS` in one statement (a shutdown writes what is left; `CLICK_DURABILITY=strict` answers each visit
 * only once its batch is committed). Links with a limit or a rotation: the visit waits for its claim, granted with
 * the claims that arrived with it in one statement under the counter's row lock, so the limit is never exceeded
 * and the rotation is exact on any number of instances.
 */
@Injectable()
export class ClickWriter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ClickWriter.name);
  private readonly strict: boolean;
  private buffer: PendingClick[] = [];
  /** Resolvers of the visits waiting for the buffer's next write (strict durability only). */
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** A batch being written, kept with its id until it is known to be written or given up. */
  private inFlight: { id: string; clicks: PendingClick[]; tries: number } | null = null;
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly claims = new Map<
    number,
    { pending: Claim[]; running: boolean; turns: readonly string[] }
  >();
  private readonly claimsRunning = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly repository: ClickRepository,
    @Inject(clicksConfig.KEY) private readonly config: ClicksConfig,
    private readonly metrics: MetricsService,
    private readonly interest: EventInterest,
    private readonly outage: RecentOutage,
  ) {
    this.strict = config.clickDurability === 'strict';
    metrics.clickBuffer(() => this.pending(), config.clickBufferMax);
  }

  onModuleInit(): void {
    if (this.strict) return;
    this.timer = setInterval(() => this.tick(), this.config.clickFlushMs);
    this.timer.unref();
  }

  /**
   * Counts a click of a person (never a bot's), sent to `target` (a rotation's click: its turn's). Null when the
   * link may not be visited any more: its limit was reached, or it was disabled or its period ended since it was
   * read. Throws ServiceUnavailableException when the click cannot be kept (the buffer is full while the database
   * does not answer).
   */
  count(
    link: CountedLink,
    visitor: VisitorProfile,
    target: ClickTarget,
  ): ValueOrPromise<CountedClick | null> {
    const click: PendingClick = { linkId: link.id, at: Date.now(), visitor, target };
    if ((link.clicksLimit !== null && link.clicksLimit > 0) || target === BY_TURN)
      return this.claim(click, link.turns);
    if (
      this.closing ||
      this.buffer.length + (this.inFlight?.clicks.length ?? 0) >= this.config.clickBufferMax
    ) {
      throw new ServiceUnavailableException();
    }
    this.buffer.push(click);
    if (!this.strict) return { rotation: null };
    const written = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // Group commit: the visits that arrive while a batch is written go together in the next.
    if (this.flushing === null) setImmediate(() => void this.flush());
    return written.then(() => ({ rotation: null }));
  }

  /**
   * Writes the clicks this instance still holds for these links (any link when none are named), so that what
   * the API reads next includes every visit this instance has answered. A failed write leaves them pending.
   */
  async settle(linkIds?: number[]): Promise<void> {
    const wanted = linkIds === undefined ? null : new Set(linkIds);
    const holds = () =>
      [...this.buffer, ...(this.inFlight?.clicks ?? [])].some(
        (click) => wanted === null || wanted.has(click.linkId),
      );
    // At most the batch under way, then the one after it.
    for (let round = 0; round < 3 && holds(); round += 1) await this.flush();
  }

  /** Clicks buffered and not yet known to be written. */
  pending(): number {
    return this.buffer.length + (this.inFlight?.clicks.length ?? 0);
  }

  /**
   * Writes what is buffered (one flush at a time); resolves when this round is done, written or not. A round that
   * wrote its batch and leaves a full batch behind starts the next at once, so that a backlog is written as fast
   * as the database takes it.
   */
  flush(): Promise<void> {
    if (this.flushing !== null) return this.flushing;
    const started = Date.now();
    let wrote = false;
    this.flushing = this.flushRound()
      .then((written) => {
        wrote = written;
      })
      .finally(() => {
        this.flushing = null;
        this.lastRound = { ended: Date.now(), took: Date.now() - started };
        if (this.buffer.length > 0 && (this.strict || (wrote && this.buffer.length >= MAX_BATCH)))
          setImmediate(() => void this.flush());
      });
    return this.flushing;
  }

  /** Whether the statements write click events: only while someone takes them (see EventInterest). */
  private async eventsTaken(): Promise<EventsTaken> {
    return { clicks: await this.interest.clicksWanted(), streams: this.interest.streams };
  }

  private lastRound = { ended: 0, took: 0 };

  /** The timer's flush: at most every `CLICK_FLUSH_MS`, and under load after {@link GAP_FACTOR} times the last round. */
  private tick(): void {
    const gap = Math.min(MAX_GAP_MS, GAP_FACTOR * this.lastRound.took);
    if (Date.now() - this.lastRound.ended < gap && this.buffer.length < MAX_BATCH) return;
    void this.flush();
  }

  /** Shutdown: after the HTTP server stopped and its requests were answered, nothing buffered is left behind. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.timer !== null) clearInterval(this.timer);
    await Promise.allSettled([...this.claimsRunning]);
    const deadline = Date.now() + SHUTDOWN_FLUSH_MS;
    while (this.pending() > 0 && Date.now() < deadline) {
      const before = this.pending();
      await this.flush();
      // A round that wrote nothing waits a little before the next try; one that wrote goes straight on.
      if (this.pending() >= before) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (this.pending() > 0)
      this.logger.error(`${this.pending()} clicks could not be written before shutdown`);
  }

  /** One batch: true when it was written (or found written before), false when nothing was or it failed. */
  private async flushRound(): Promise<boolean> {
    if (this.inFlight === null) {
      if (this.buffer.length === 0) return false;
      const clicks = this.buffer.splice(0, MAX_BATCH);
      this.inFlight = { id: randomUUID(), clicks, tries: 0 };
    }
    const batch = this.inFlight;
    const waiting = this.strict ? this.waiting.splice(0, batch.clicks.length) : [];
    try {
      batch.tries += 1;
      const recorded = await this.repository.writeBatch(batch.id, batch.clicks, await this.eventsTaken());
      this.inFlight = null;
      this.metrics.clicksWritten(recorded);
      for (const waiter of waiting) waiter.resolve();
    } catch (error) {
      const state = sqlState(error);
      if (state === '23505') {
        // Its id is known: an earlier try was written after all.
        this.inFlight = null;
        for (const waiter of waiting) waiter.resolve();
        return true;
      }
      if (state.startsWith('22') && batch.tries >= MAX_DATA_ERROR_TRIES) {
        this.logger.error(
          `Gave up a batch of ${batch.clicks.length} clicks the database refuses (SQLSTATE ${state})`,
        );
        this.inFlight = null;
      } else {
        this.logger.warn(`Clicks not written yet (SQLSTATE ${state || 'none'}): will try again`);
      }
      // A visit that waits for its click is answered now (503): the database did not take it, so neither is it kept.
      for (const waiter of waiting) waiter.reject(new ServiceUnavailableException());
      if (this.strict) this.inFlight = null;
      return false;
    }
    await this.pruneBatchIds();
    return true;
  }

  private lastPrune = 0;

  /** Forgets old batch ids, about once a minute. */
  private async pruneBatchIds(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000) return;
    this.lastPrune = Date.now();
    await this.repository.pruneBatchIds(BATCH_ID_RETENTION).catch(() => undefined);
  }

  private claim(click: PendingClick, turns: readonly string[]): Promise<CountedClick | null> {
    // Without the database no click can be claimed: refused at once while it was found away a moment ago.
    if (this.closing || this.outage.now) return Promise.reject(new ServiceUnavailableException());
    return new Promise((resolve, reject) => {
      let queue = this.claims.get(click.linkId);
      if (queue === undefined) {
        queue = { pending: [], running: false, turns };
        this.claims.set(click.linkId, queue);
      }
      // The rotation as the latest visit read it: the turns it is told are counted against it.
      queue.turns = turns;
      queue.pending.push({ ...click, resolve, reject });
      // The claims that arrive in the same turn of the event loop go in one statement.
      if (!queue.running) {
        queue.running = true;
        setImmediate(() => this.track(this.runClaims(click.linkId)));
      }
    });
  }

  private track(run: Promise<void>): void {
    this.claimsRunning.add(run);
    void run.finally(() => this.claimsRunning.delete(run));
  }

  private async runClaims(linkId: number): Promise<void> {
    const queue = this.claims.get(linkId)!;
    while (queue.pending.length > 0) {
      const claims = queue.pending.splice(0, MAX_BATCH);
      try {
        const plan = await this.repository.claim(linkId, claims, queue.turns, await this.eventsTaken());
        this.metrics.clicksWritten(plan?.granted ?? 0);
        // The turns follow the last one, in arrival order, taken by the clicks by turn alone (as the claim did).
        let turns = 0;
        claims.forEach((claim, index) => {
          if (plan === undefined || index >= plan.granted) claim.resolve(null);
          else if (!plan.rotates || claim.target !== BY_TURN) claim.resolve({ rotation: null });
          else {
            turns += 1;
            claim.resolve({ rotation: ((plan.last_rotation ?? -1) + turns) % plan.slots });
          }
        });
      } catch (error) {
        this.outage.seen(error);
        this.logger.warn(`Clicks of link ${linkId} not counted (SQLSTATE ${sqlState(error) || 'none'})`);
        for (const claim of claims) claim.reject(new ServiceUnavailableException());
      }
    }
    queue.running = false;
    this.claims.delete(linkId);
  }
}
