import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { EventPayloads } from '../event-payloads';
import { EventsRepository } from '../events.repository';
import { COMPLETED_BY_SENDER, type EventEnvelope, type OutgoingEvent } from '../outbox/event';
import { EventStreamRepository, type StreamRow } from './event-stream.repository';
import { eventFrame } from './sse';
import {
  comparePositions,
  justBefore,
  laterOf,
  pastTransactionsBefore,
  type StreamPosition,
} from './stream-position';
import { clickedLinkIds, visibleTo, type SpaceFacts } from './stream-visibility';

/** How often the streams' events are looked for, and how often an idle stream says it is alive. */
export interface EventStreamTiming {
  /** Between two reads of the outbox while a stream is open on the instance (at most a second: the latency). */
  pollMs: number;
  /** Between two comments on a stream (at most 30 s, contract §14); each also checks its key or session again. */
  heartbeatMs: number;
}

export const DEFAULT_EVENT_STREAM_TIMING: EventStreamTiming = { pollMs: 250, heartbeatMs: 15_000 };
export const EVENT_STREAM_TIMING = Symbol('EVENT_STREAM_TIMING');

/** Events read per statement, for the live read and for each stream that catches up. */
const BATCH = 500;
/** A change's event that its request has not completed this long after it was written is completed here. */
const COMPLETION_GRACE_MS = 10_000;
const COMPLETED_HERE: ReadonlySet<string> = new Set(COMPLETED_BY_SENDER);

/** An open stream as the reader feeds it. */
export interface StreamTarget {
  readonly accountId: number;
  /** The spaces its caller may read (their links' events alone); null for every link of the account. */
  spaceIds: readonly number[] | null;
  /** The last event it has passed: it gets the events after it. */
  position: StreamPosition;
  /**
   * Events already committed when it started that sort after its position (written by transactions that were
   * running at its start): they came before it, so it does not get them. Dropped once its position passes them all.
   */
  skip: { ids: ReadonlySet<string>; until: StreamPosition } | null;
  send(frame: string): void;
}

/** Events ready to send, the position they bring their readers to, and whether a read may find more at once. */
interface Batch {
  rows: StreamRow[];
  reached: StreamPosition;
  more: boolean;
}

/**
 * Feeds the open streams of this instance from the outbox, with one reader however many streams are open: every
 * `pollMs` it reads the events written since its last read, of the accounts with a stream here, and hands each to
 * the streams that may read it. So a change made through any instance reaches every stream within a read, and a
 * thousand streams cost the database what one does. A stream that starts behind the reader (one resuming with
 * `Last-Event-ID`) first catches up with reads of its own account. Events are read in the outbox's stream order (see
 * EventStreamRepository): no event is sent twice to a stream or passed over.
 */
@Injectable()
export class EventStreamReader implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EventStreamReader.name);
  private readonly targets = new Set<StreamTarget>();
  /** Where the live read stands: every event before it was handed to the streams that were there. */
  private cursor: StreamPosition | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private woken = false;
  private closing = false;
  private failing = false;
  /** The reads run outside the request that opened the first stream: no request's context is theirs. */
  private readonly scope = new AsyncResource('EventStreamReader');

  constructor(
    private readonly repository: EventStreamRepository,
    private readonly events: EventsRepository,
    private readonly payloads: EventPayloads,
    @Inject(EVENT_STREAM_TIMING) private readonly timing: EventStreamTiming,
  ) {}

  /** Feeds a stream from its position on, from the next read. */
  add(target: StreamTarget): void {
    this.targets.add(target);
    this.wake();
  }

  remove(target: StreamTarget): void {
    this.targets.delete(target);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** A read as soon as the one under way ends (at once if none is). */
  private wake(): void {
    if (this.running !== null) {
      this.woken = true;
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.closing || this.targets.size === 0) {
      // Nothing to feed: the next stream starts from a fresh horizon rather than read what came meanwhile.
      if (this.targets.size === 0) this.cursor = null;
      return;
    }
    this.timer = this.scope.runInAsyncScope(() =>
      setTimeout(() => {
        this.timer = null;
        this.running = this.pass()
          .then(
            (more) => {
              this.failing = false;
              return more;
            },
            (error: unknown) => {
              if (!this.failing) this.logger.warn(`Event streams paused: ${(error as Error).message}`);
              this.failing = true;
              return false;
            },
          )
          .then((more) => {
            this.running = null;
            const again = more || this.woken;
            this.woken = false;
            this.schedule(again ? 0 : this.timing.pollMs);
          });
      }, delayMs),
    );
    this.timer.unref();
  }

  /** One read for the streams that are behind and one for all; true when there is more to read at once. */
  private async pass(): Promise<boolean> {
    if (this.targets.size === 0) return false;
    const staleBefore = new Date(Date.now() - COMPLETION_GRACE_MS);
    this.cursor ??= pastTransactionsBefore(await this.repository.horizon());
    const cursor = this.cursor;
    let more = false;
    for (const target of [...this.targets]) {
      if (comparePositions(target.position, cursor) >= 0) continue;
      const rows = await this.repository.between(
        target.accountId,
        target.position,
        cursor,
        BATCH,
        staleBefore,
      );
      const batch = await this.ready(rows, cursor);
      await this.hand(batch.rows, [target]);
      this.advance(target, batch.reached);
      more ||= batch.more;
    }
    const accountIds = [...new Set([...this.targets].map((target) => target.accountId))];
    const { horizon, rows } = await this.repository.after(cursor, accountIds, BATCH, staleBefore);
    const batch = await this.ready(rows, pastTransactionsBefore(horizon));
    // The streams that stand at the cursor or past it; those still catching up are fed by their own reads.
    const live = [...this.targets].filter((target) => comparePositions(target.position, cursor) >= 0);
    await this.hand(batch.rows, live);
    for (const target of live) this.advance(target, batch.reached);
    this.cursor = laterOf(cursor, batch.reached);
    return more || batch.more;
  }

  private advance(target: StreamTarget, reached: StreamPosition): void {
    target.position = laterOf(target.position, reached);
    if (target.skip !== null && comparePositions(target.position, target.skip.until) >= 0) target.skip = null;
  }

  /**
   * The events of `rows` that can be sent now, in order, and the position they reach: `end` when every row was
   * read (fewer than a batch) and none was held back, else the last row's. An event written without its data is
   * completed here when its sender would (a limit reached, a health change, or a change whose request did not
   * complete it); another is a change whose request completes it in a moment, and holds back itself and every event
   * after it until a later read.
   */
  private async ready(rows: StreamRow[], end: StreamPosition): Promise<Batch> {
    const pending = rows.findIndex((row) => !row.ready && !row.stale && !COMPLETED_HERE.has(row.type));
    const taken = pending === -1 ? rows : rows.slice(0, pending);
    const incomplete = taken.filter((row) => !row.ready);
    if (incomplete.length > 0) await this.events.complete(await this.payloads.dataOf(incomplete));
    if (pending !== -1) return { rows: taken, reached: justBefore(rows[pending]), more: false };
    if (rows.length < BATCH) return { rows: taken, reached: end, more: false };
    const last = rows[rows.length - 1];
    return { rows: taken, reached: { txid: last.txid, id: last.id }, more: true };
  }

  /** Hands each event to the streams of its account that have not passed it and may read it. */
  private async hand(rows: readonly StreamRow[], targets: readonly StreamTarget[]): Promise<void> {
    if (rows.length === 0 || targets.length === 0) return;
    const byAccount = new Map<number, StreamTarget[]>();
    for (const target of targets)
      byAccount.set(target.accountId, [...(byAccount.get(target.accountId) ?? []), target]);
    const wanted = rows.filter((row) => byAccount.has(row.account_id));
    if (wanted.length === 0) return;
    const events = await this.payloads.outgoing(wanted.map((row) => row.id));
    const facts = await this.spaceFacts(wanted, events, byAccount);
    for (const row of wanted) {
      const event = events.get(row.id);
      // Gone meanwhile: its account was deleted.
      if (event === undefined) continue;
      const frames = new Map<string, string | null>();
      for (const target of byAccount.get(row.account_id)!) {
        if (comparePositions(target.position, row) >= 0 || target.skip?.ids.has(row.id) === true) continue;
        const key = target.spaceIds === null ? '' : target.spaceIds.join(',');
        let frame = frames.get(key);
        if (frame === undefined) {
          frame = this.frameFor(event, target.spaceIds, facts.get(row.account_id));
          frames.set(key, frame);
        }
        if (frame !== null) target.send(frame);
      }
    }
  }

  /** The frame of an event as a caller restricted to `spaceIds` (or not) reads it; null when it may not. */
  private frameFor(event: OutgoingEvent, spaceIds: readonly number[] | null, facts?: FactsOf): string | null {
    if (spaceIds === null) return eventFrame(event.id, event.type, event.body);
    const envelope = facts?.envelopes.get(event.id);
    if (envelope === undefined || facts === undefined) return null;
    const visible = visibleTo(envelope, spaceIds, facts);
    if (visible === null) return null;
    return eventFrame(event.id, event.type, visible === envelope ? event.body : JSON.stringify(visible));
  }

  /**
   * For the accounts with a stream restricted to spaces: their events read back, and where their links are (or
   * were, for a deletion), in two reads per account.
   */
  private async spaceFacts(
    rows: readonly StreamRow[],
    events: ReadonlyMap<string, OutgoingEvent>,
    byAccount: ReadonlyMap<number, StreamTarget[]>,
  ): Promise<Map<number, FactsOf>> {
    const facts = new Map<number, FactsOf>();
    for (const [accountId, targets] of byAccount) {
      if (targets.every((target) => target.spaceIds === null)) continue;
      const envelopes = new Map<string, EventEnvelope>();
      const clicked = new Set<number>();
      const deleted: string[] = [];
      for (const row of rows) {
        const event = events.get(row.id);
        if (row.account_id !== accountId || event === undefined) continue;
        const envelope = JSON.parse(event.body) as EventEnvelope;
        envelopes.set(event.id, envelope);
        if (row.type === 'link.clicked') for (const id of clickedLinkIds(envelope)) clicked.add(id);
        if (row.type === 'link.deleted') deleted.push(row.id);
      }
      facts.set(accountId, {
        envelopes,
        linkSpaces: await this.repository.linkSpaces(accountId, [...clicked]),
        deletedSpaces: await this.repository.deletedSpaces(deleted),
      });
    }
    return facts;
  }
}

/** What decides a restricted caller's events of one account: the events read back, and their links' spaces. */
interface FactsOf extends SpaceFacts {
  envelopes: Map<string, EventEnvelope>;
}
