import {
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { clicksConfig, type ClicksConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import type { VisitorProfile } from '../targeting/visitor';

/** What a click needs of its link to be counted. */
export interface CountedLink {
  id: number;
  /** Null or 0: no limit. */
  clicksLimit: number | null;
  rotates: boolean;
}

export interface CountedClick {
  /** The rotation index this visit is served, for rotating links. */
  rotation: number | null;
}

export interface PendingClick {
  linkId: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  visitor: VisitorProfile;
}

interface Claim extends PendingClick {
  resolve: (click: CountedClick | null) => void;
  reject: (error: unknown) => void;
}

/** The most clicks one statement writes. */
const MAX_BATCH = 5000;
/** How long a shutdown keeps retrying buffered clicks while the database does not answer. */
const SHUTDOWN_FLUSH_MS = 15_000;
/** Data errors (class 22) cannot succeed on a retry: such a batch is given up after this many tries. */
const MAX_DATA_ERROR_TRIES = 3;
/** Batch ids older than this are forgotten: no retry of a batch lasts that long. */
const BATCH_ID_RETENTION = '1 day';

/**
 * The columns of click rows, in arrival order, from a batch as {@link clickParameters} sends it: each distinct
 * visitor profile once ($2, a JSON array of tuples), then one entry a click in three arrays: its link ($3), the
 * index of its profile in $2 ($4) and its time in milliseconds after $6 ($5). A batch's visits come from few
 * profiles, so PostgreSQL reads three integer arrays and a short JSON text instead of a JSON object a click.
 */
const CLICK_ROWS = `
  WITH profiles AS MATERIALIZED (SELECT $2::jsonb AS list)
  SELECT r.link_id, $6::timestamptz + r.ms * interval '1 millisecond' AS created_at,
         p.list -> r.profile ->> 0 AS referrer, p.list -> r.profile ->> 1 AS country,
         p.list -> r.profile ->> 2 AS continent, p.list -> r.profile ->> 3 AS browser,
         p.list -> r.profile ->> 4 AS operating_system, p.list -> r.profile ->> 5 AS device,
         p.list -> r.profile ->> 6 AS language, p.list -> r.profile ->> 7 AS city, r.ord
    FROM unnest($3::int[], $4::int[], $5::int[]) WITH ORDINALITY AS r(link_id, profile, ms, ord)
   CROSS JOIN profiles p`;

/**
 * A batch of clicks of links without a limit or rotation, in one statement: the batch id first (a retried batch
 * that was in fact written is refused by its primary key), then the counters of the links that still exist (a
 * deleted link's counter row went with it), updated in link order so that two instances' batches take their row
 * locks in the same order, then the click rows of those links, in arrival order. The counter's row lock stands for
 * the link: a link deleted meanwhile waits for this commit, and its delete trigger then removes these clicks too.
 */
const WRITE_BATCH = `
  WITH batch AS (
    INSERT INTO click_batches (id) VALUES ($1) RETURNING id
  ), rows AS (${CLICK_ROWS}
  ), counted AS (
    UPDATE link_counters c SET clicks = c.clicks + d.n, listed_behind = true
      FROM (SELECT link_id, count(*)::int AS n FROM rows CROSS JOIN batch GROUP BY link_id ORDER BY link_id) d
     WHERE c.link_id = d.link_id
    RETURNING c.link_id
  ), recorded AS (
    INSERT INTO clicks (link_id, created_at, referrer, country, continent, browser, operating_system, device, language,
                        city)
    SELECT r.link_id, r.created_at, r.referrer, r.country, r.continent, r.browser, r.operating_system, r.device,
           r.language, r.city
      FROM rows r
     WHERE r.link_id IN (SELECT link_id FROM counted)
     ORDER BY r.ord
    RETURNING link_id
  )
  SELECT (SELECT count(*) FROM recorded)::int AS recorded, (SELECT count(*) FROM counted)::int AS links`;

/**
 * The visits waiting on a link with a limit or a rotation, granted in one statement under the counter's row lock:
 * as many as the limit still allows (all of them without a limit), the rotation moved on by as many, and the click
 * rows of the granted visits recorded, in arrival order. Nothing is granted to a link that is disabled or outside
 * its active period by now.
 */
const CLAIM = `
  WITH current AS (
    SELECT c.link_id, c.clicks, c.last_rotation, l.clicks_limit, l.targets_type,
           CASE WHEN jsonb_typeof(l.targets) = 'array' THEN jsonb_array_length(l.targets) ELSE 0 END AS slots
      FROM link_counters c
      JOIN links l ON l.id = c.link_id
     WHERE c.link_id = $1
       AND l.disabled = false
       AND (l.active_period_start_at IS NULL OR now() >= l.active_period_start_at)
       AND (l.active_period_end_at IS NULL OR now() < l.active_period_end_at)
       FOR NO KEY UPDATE OF c
  ), plan AS (
    SELECT link_id, last_rotation, slots, targets_type = 'rotations' AND slots > 0 AS rotates,
           CASE WHEN clicks_limit > 0 THEN LEAST($7::int, GREATEST(clicks_limit - clicks, 0)) ELSE $7::int END
             AS granted
      FROM current
  ), counted AS (
    UPDATE link_counters c
       SET clicks = c.clicks + p.granted,
           listed_clicks = c.clicks + p.granted,
           listed_behind = false,
           last_rotation = CASE WHEN p.rotates AND p.granted > 0
                             THEN (COALESCE(p.last_rotation, -1) + p.granted) % p.slots
                             ELSE c.last_rotation END
      FROM plan p
     WHERE c.link_id = p.link_id
  ), rows AS (${CLICK_ROWS}
  ), recorded AS (
    INSERT INTO clicks (link_id, created_at, referrer, country, continent, browser, operating_system, device, language,
                        city)
    SELECT r.link_id, r.created_at, r.referrer, r.country, r.continent, r.browser, r.operating_system, r.device,
           r.language, r.city
      FROM rows r CROSS JOIN plan p
     WHERE r.ord <= p.granted
     ORDER BY r.ord
  )
  SELECT granted, last_rotation, slots, rotates FROM plan`;

/** A PostgreSQL array literal of integers. */
function integers(values: number[]): string {
  return `{${values.join(',')}}`;
}

/** Parameters $2 to $6 of a statement reading {@link CLICK_ROWS}. */
export function clickParameters(clicks: readonly PendingClick[]): [string, string, string, string, string] {
  const base = clicks.length === 0 ? 0 : clicks[0].at;
  const numbers = new Map<VisitorProfile, number>();
  const profiles: (string | null)[][] = [];
  const links: number[] = [];
  const indexes: number[] = [];
  const offsets: number[] = [];
  for (const { linkId, at, visitor } of clicks) {
    let number = numbers.get(visitor);
    if (number === undefined) {
      number = profiles.length;
      numbers.set(visitor, number);
      const { referrer, country, continent, browser, os, device, language, city } = visitor;
      profiles.push([referrer, country, continent, browser, os, device, language, city]);
    }
    links.push(linkId);
    indexes.push(number);
    offsets.push(at - base);
  }
  return [
    JSON.stringify(profiles),
    integers(links),
    integers(indexes),
    integers(offsets),
    new Date(base).toISOString(),
  ];
}

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
  private readonly claims = new Map<number, { pending: Claim[]; running: boolean }>();
  private readonly claimsRunning = new Set<Promise<void>>();
  private closing = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(clicksConfig.KEY) private readonly config: ClicksConfig,
    private readonly metrics: MetricsService,
  ) {
    this.strict = config.clickDurability === 'strict';
  }

  onModuleInit(): void {
    if (this.strict) return;
    this.timer = setInterval(() => void this.flush(), this.config.clickFlushMs);
    this.timer.unref();
  }

  /**
   * Counts a click of a person (never a bot's). Null when the link may not be visited any more: its limit was
   * reached, or it was disabled or its period ended since it was read. Throws ServiceUnavailableException when
   * the click cannot be kept (the buffer is full while the database does not answer).
   */
  count(link: CountedLink, visitor: VisitorProfile): Promise<CountedClick | null> | CountedClick {
    const click = { linkId: link.id, at: Date.now(), visitor };
    if ((link.clicksLimit !== null && link.clicksLimit > 0) || link.rotates) return this.claim(click);
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
   * wrote its batch and leaves a full batch behind, or that took longer than the flush interval, starts the next
   * at once: under a load the timer alone would not keep up with, the backlog is written as fast as the database
   * takes it instead of growing by a batch a tick (and with it what a crash could lose).
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
        const behind = this.buffer.length >= MAX_BATCH || Date.now() - started >= this.config.clickFlushMs;
        if (this.buffer.length > 0 && (this.strict || (wrote && behind)))
          setImmediate(() => void this.flush());
      });
    return this.flushing;
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
      const written: { recorded: number }[] = await this.dataSource.query(WRITE_BATCH, [
        batch.id,
        ...clickParameters(batch.clicks),
      ]);
      this.inFlight = null;
      this.metrics.clicksWritten(written[0]?.recorded ?? 0);
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
    await this.dataSource
      .query(`DELETE FROM click_batches WHERE written_at < now() - interval '${BATCH_ID_RETENTION}'`)
      .catch(() => undefined);
  }

  private claim(click: PendingClick): Promise<CountedClick | null> {
    if (this.closing) return Promise.reject(new ServiceUnavailableException());
    return new Promise((resolve, reject) => {
      let queue = this.claims.get(click.linkId);
      if (queue === undefined) {
        queue = { pending: [], running: false };
        this.claims.set(click.linkId, queue);
      }
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
        const rows: { granted: number; last_rotation: number | null; slots: number; rotates: boolean }[] =
          await this.dataSource.query(CLAIM, [linkId, ...clickParameters(claims), claims.length]);
        const plan = rows[0];
        this.metrics.clicksWritten(plan?.granted ?? 0);
        claims.forEach((claim, index) => {
          if (plan === undefined || index >= plan.granted) claim.resolve(null);
          else {
            const rotation = plan.rotates ? ((plan.last_rotation ?? -1) + 1 + index) % plan.slots : null;
            claim.resolve({ rotation });
          }
        });
      } catch (error) {
        this.logger.warn(`Clicks of link ${linkId} not counted (SQLSTATE ${sqlState(error) || 'none'})`);
        for (const claim of claims) claim.reject(new ServiceUnavailableException());
      }
    }
    queue.running = false;
    this.claims.delete(linkId);
  }
}
