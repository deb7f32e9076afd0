import { Inject, Injectable } from '@nestjs/common';
import { ChangeFeed, EVERYTHING } from '../../database/change-feed';
import type { EventType } from './event';
import { OutboxRepository, type Takers } from './outbox.repository';

/** What the change feed says when an account's webhooks changed (the trigger of the webhooks table). */
export const WEBHOOKS_CHANGED = 'webhooks';

/**
 * What the change feed says when an account's events began to be held for its event streams (`events/stream/`):
 * the first stream of an account, or the first since its hold ran out.
 */
export const STREAMS_CHANGED = 'event_streams';

/** Whether event streams are on (`EVENTS_REDIS_URL` or `EVENTS_AMQP_URL`): then every event is wanted. */
export const EVENT_STREAMS = Symbol('EVENT_STREAMS');

/** An answer kept in memory, and until when (Date.now() time) it holds without a change heard. */
interface Kept<T> {
  value: T;
  until: number;
}

/**
 * Until when an answer holds: while no change is heard, except one that counted an API event stream's hold, which
 * runs out by itself (no notice says so).
 */
function keptUntil(takers: Takers<unknown>): number {
  return held(takers) ? Date.now() + takers.streamMs! : Number.POSITIVE_INFINITY;
}

/** Whether an API event stream holds events now. */
function held(takers: Takers<unknown>): boolean {
  return takers.streamMs !== null && takers.streamMs > 0;
}

/**
 * Who takes which events, so that a change or a click batch writes an event only when someone will read it: the
 * brokers' streams (Redis, RabbitMQ) take everything; otherwise an account's enabled webhooks say, and the API's
 * event streams of the account (`events/stream/`, open or closed within the hold) take every type. Kept in memory
 * while the change feed is heard, so a link create asks nothing more of the database; a new webhook or an
 * account's first event stream is heard by every instance within the feed's second, and from then on every change
 * of its account writes the events it takes.
 */
@Injectable()
export class EventInterest {
  private readonly byAccount = new Map<number, Kept<ReadonlySet<string> | 'all'>>();
  private clickTakers: Kept<boolean> | null = null;
  private webhooks: Kept<boolean> | null = null;
  private changes = 0;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly feed: ChangeFeed,
    @Inject(EVENT_STREAMS) readonly streams: boolean,
  ) {
    feed.subscribe((change) => {
      if (change !== EVERYTHING && change !== WEBHOOKS_CHANGED && change !== STREAMS_CHANGED) return;
      this.changes += 1;
      this.byAccount.clear();
      this.clickTakers = null;
      this.webhooks = null;
    });
  }

  /** Whether the account's changes of this type are taken by anyone. */
  async wants(accountId: number, type: EventType): Promise<boolean> {
    if (this.streams) return true;
    const types = await this.keptOr(
      this.byAccount.get(accountId),
      () => this.repository.eventsTakenBy(accountId),
      (takers) => (held(takers) ? 'all' : new Set(takers.webhooks)),
      (kept) => {
        if (this.byAccount.size >= 100_000) this.byAccount.clear();
        this.byAccount.set(accountId, kept);
      },
    );
    return types === 'all' || types.has(type);
  }

  /**
   * Whether any account's clicks are taken: click batches carry the statement that writes `link.clicked` and
   * `link.limit_reached` events only then, so that a service without webhooks or streams pays nothing for them.
   */
  async clicksWanted(): Promise<boolean> {
    if (this.streams) return true;
    return this.keptOr(
      this.clickTakers,
      () => this.repository.clicksTaken(),
      (takers) => takers.webhooks || held(takers),
      (kept) => (this.clickTakers = kept),
    );
  }

  /**
   * Whether there is anything to send or to complete: the streams are on, some webhook is enabled, or an event
   * stream holds events (whose events the worker completes, marks dispatched and in time removes). A service with
   * none of them does not poll the outbox at all.
   */
  async anyTakers(): Promise<boolean> {
    if (this.streams) return true;
    return this.keptOr(
      this.webhooks,
      () => this.repository.anyTaker(),
      (takers) => takers.webhooks || held(takers),
      (kept) => (this.webhooks = kept),
    );
  }

  /**
   * The answer kept, while the feed is heard and its hold lasts; otherwise read anew, and kept unless a change was
   * heard during the read (it may have missed it).
   */
  private async keptOr<T, V>(
    kept: Kept<V> | null | undefined,
    read: () => Promise<Takers<T>>,
    answer: (takers: Takers<T>) => V,
    keep: (kept: Kept<V>) => void,
  ): Promise<V> {
    if (kept != null && this.feed.fresh && Date.now() < kept.until) return kept.value;
    const before = this.changes;
    const takers = await read();
    const value = answer(takers);
    if (this.feed.listening && this.changes === before) keep({ value, until: keptUntil(takers) });
    return value;
  }

  /** This instance's own change to webhooks, heard at once (the trigger's notice follows). */
  changed(): void {
    this.feed.publish(WEBHOOKS_CHANGED);
  }
}
