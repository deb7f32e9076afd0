import { Injectable, Logger } from '@nestjs/common';
import type { Transaction } from '../../database/transactions';
import type { EventType, LinkEventType } from './event';
import { EventInterest } from './event-interest';
import { OutboxRepository, type PendingEvents } from './outbox.repository';

export type { PendingEvents } from './outbox.repository';

/**
 * The write side of the outbox for changes to links: an event is written in the transaction of the change, so that
 * a change that rolls back leaves none and one that commits always has its event. A created or updated link is
 * written as the API shows it, which is known only once the change is committed: the event is written incomplete
 * and given its data right after the commit ({@link complete}); the sender completes one that a crash left so
 * from the link as it is then.
 */
@Injectable()
export class EventOutbox {
  private readonly logger = new Logger(EventOutbox.name);

  constructor(
    private readonly repository: OutboxRepository,
    private readonly interest: EventInterest,
  ) {}

  /** Whether the account's changes of this type are taken: a change asks before it chooses how to write. */
  wants(accountId: number, type: EventType): Promise<boolean> {
    return this.interest.wants(accountId, type);
  }

  /**
   * Writes the events of a change to these links in the transaction `tx`, if anyone takes them (asked again
   * here, within the transaction); returns those to complete after the commit.
   */
  async record(
    tx: Transaction,
    accountId: number,
    type: LinkEventType,
    linkIds: readonly number[],
  ): Promise<PendingEvents> {
    if (linkIds.length === 0) return [];
    return this.repository.insertPending(tx, accountId, type, linkIds, this.interest.streams);
  }

  /** Writes the `link.deleted` events of links deleted in the transaction `tx`, if anyone takes them. */
  async recordDeleted(tx: Transaction, accountId: number, linkIds: readonly number[]): Promise<void> {
    if (linkIds.length === 0) return;
    await this.repository.insertDeleted(tx, accountId, linkIds, this.interest.streams);
  }

  /**
   * Gives events written by {@link record} their data, once their change is committed. A failure here loses
   * nothing: the sender completes an event left incomplete from the link as it is when it is sent.
   */
  async complete(pending: PendingEvents, dataOf: (linkId: number) => unknown): Promise<void> {
    if (pending.length === 0) return;
    try {
      await this.repository.complete(
        pending.map((event) => event.id),
        pending.map((event) => JSON.stringify(dataOf(event.link_id) ?? null)),
      );
    } catch (error) {
      this.logger.warn(`Events left for the sender to complete: ${(error as Error).message}`);
    }
  }
}
