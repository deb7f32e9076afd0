import { Inject, Injectable } from '@nestjs/common';
import { ChangeFeed, EVERYTHING } from '../../database/change-feed';
import type { EventType } from './event';
import { OutboxRepository } from './outbox.repository';

/** What the change feed says when an account's webhooks changed (the trigger of the webhooks table). */
export const WEBHOOKS_CHANGED = 'webhooks';

/** Whether event streams are on (`EVENTS_REDIS_URL` or `EVENTS_AMQP_URL`): then every event is wanted. */
export const EVENT_STREAMS = Symbol('EVENT_STREAMS');

/**
 * Who takes which events, so that a change or a click batch writes an event only when someone will read it: the
 * streams take everything; otherwise an account's enabled webhooks say. Kept in memory while the change feed is
 * heard, so a link create asks nothing more of the database; a new webhook is heard by every instance within the
 * feed's second, and from then on every change of its account writes the events it takes.
 */
@Injectable()
export class EventInterest {
  private readonly byAccount = new Map<number, ReadonlySet<string>>();
  private clickTakers: boolean | null = null;
  private webhooks: boolean | null = null;
  private changes = 0;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly feed: ChangeFeed,
    @Inject(EVENT_STREAMS) readonly streams: boolean,
  ) {
    feed.subscribe((change) => {
      if (change !== EVERYTHING && change !== WEBHOOKS_CHANGED) return;
      this.changes += 1;
      this.byAccount.clear();
      this.clickTakers = null;
      this.webhooks = null;
    });
  }

  /** Whether the account's changes of this type are taken by anyone. */
  async wants(accountId: number, type: EventType): Promise<boolean> {
    if (this.streams) return true;
    const cached = this.feed.fresh ? this.byAccount.get(accountId) : undefined;
    if (cached !== undefined) return cached.has(type);
    const before = this.changes;
    const types = new Set(await this.repository.eventsTakenBy(accountId));
    if (this.feed.listening && this.changes === before) {
      if (this.byAccount.size >= 100_000) this.byAccount.clear();
      this.byAccount.set(accountId, types);
    }
    return types.has(type);
  }

  /**
   * Whether any account's clicks are taken: click batches carry the statement that writes `link.clicked` and
   * `link.limit_reached` events only then, so that a service without webhooks or streams pays nothing for them.
   */
  async clicksWanted(): Promise<boolean> {
    if (this.streams) return true;
    if (this.clickTakers !== null && this.feed.fresh) return this.clickTakers;
    const before = this.changes;
    const taken = await this.repository.clicksTaken();
    if (this.feed.listening && this.changes === before) this.clickTakers = taken;
    return taken;
  }

  /**
   * Whether there is anything to send: the streams are on, or some webhook is enabled. A service without either
   * does not poll the outbox at all.
   */
  async anyTakers(): Promise<boolean> {
    if (this.streams) return true;
    if (this.webhooks !== null && this.feed.fresh) return this.webhooks;
    const before = this.changes;
    const any = await this.repository.anyWebhookEnabled();
    if (this.feed.listening && this.changes === before) this.webhooks = any;
    return any;
  }

  /** This instance's own change to webhooks, heard at once (the trigger's notice follows). */
  changed(): void {
    this.feed.publish(WEBHOOKS_CHANGED);
  }
}
