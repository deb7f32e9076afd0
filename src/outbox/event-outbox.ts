import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventType } from './event';
import { EventInterest } from './event-interest';
import { takenSql } from './taken';

/** Events written with a change, to be given their data once it is committed: by event id, the link's id. */
export type PendingEvents = { id: string; link_id: number }[];

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly interest: EventInterest,
  ) {}

  /** Whether the account's changes of this type are taken: a change asks before it chooses how to write. */
  wants(accountId: number, type: EventType): Promise<boolean> {
    return this.interest.wants(accountId, type);
  }

  /**
   * Writes the events of a change to these links in `manager`'s transaction, if anyone takes them (asked again
   * here, within the transaction); returns those to complete after the commit.
   */
  async record(
    manager: EntityManager,
    accountId: number,
    type: 'link.created' | 'link.updated',
    linkIds: readonly number[],
  ): Promise<PendingEvents> {
    if (linkIds.length === 0) return [];
    return manager.query<PendingEvents>(
      `INSERT INTO events (account_id, type, link_id, ready)
       SELECT $1::int, $2::text, link_id, false FROM unnest($3::int[]) WITH ORDINALITY AS l(link_id, ord)
        WHERE ${takenSql('$4', '$1::int', '$2::text')}
        ORDER BY ord
       RETURNING id::text, link_id`,
      [accountId, type, linkIds, this.interest.streams],
    );
  }

  /** Writes the `link.deleted` events of links deleted in `manager`'s transaction, if anyone takes them. */
  async recordDeleted(manager: EntityManager, accountId: number, linkIds: readonly number[]): Promise<void> {
    if (linkIds.length === 0) return;
    await manager.query(
      `INSERT INTO events (account_id, type, link_id, data)
       SELECT $1::int, 'link.deleted', link_id, jsonb_build_object('id', link_id) FROM unnest($2::int[]) AS l(link_id)
        WHERE ${takenSql('$3', '$1::int', "'link.deleted'")}`,
      [accountId, linkIds, this.interest.streams],
    );
  }

  /**
   * Gives events written by {@link record} their data, once their change is committed. A failure here loses
   * nothing: the sender completes an event left incomplete from the link as it is when it is sent.
   */
  async complete(pending: PendingEvents, dataOf: (linkId: number) => unknown): Promise<void> {
    if (pending.length === 0) return;
    try {
      await this.dataSource.query(
        `UPDATE events e SET data = d.data, ready = true
           FROM unnest($1::bigint[], $2::jsonb[]) AS d(id, data) WHERE e.id = d.id`,
        [
          pending.map((event) => event.id),
          pending.map((event) => JSON.stringify(dataOf(event.link_id) ?? null)),
        ],
      );
    } catch (error) {
      this.logger.warn(`Events left for the sender to complete: ${(error as Error).message}`);
    }
  }
}
