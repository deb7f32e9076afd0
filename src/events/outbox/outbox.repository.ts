import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Transaction } from '../../database/transactions';
import type { LinkEventType } from './event';

/** Events written with a change, to be given their data once it is committed: by event id, the link's id. */
export type PendingEvents = { id: string; link_id: number }[];

/**
 * The rule that decides whether an event is written, in SQL, for every statement that writes events: the streams
 * take every event (`streams`, a boolean parameter), and otherwise an enabled webhook of the account that takes its
 * type. `account` and `type` are SQL expressions (a column, a parameter, a quoted literal).
 */
export function takenSql(streams: string, account: string, type: string): string {
  return `(${streams}::boolean OR EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = ${account} AND w.enabled
                                            AND ${type} = ANY (w.events)))`;
}

/** The outbox's writes with the changes to links, and who takes which events. */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The event types the account's enabled webhooks take (each once per webhook). */
  async eventsTakenBy(accountId: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ events: string[] }[]>(
      'SELECT events FROM webhooks WHERE account_id = $1 AND enabled',
      [accountId],
    );
    return rows.flatMap((row) => row.events);
  }

  /** Whether any enabled webhook takes click events. */
  async clicksTaken(): Promise<boolean> {
    const [row] = await this.dataSource.query<{ taken: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM webhooks WHERE enabled
                        AND events && ARRAY['link.clicked', 'link.limit_reached']::text[]) AS taken`,
    );
    return row.taken;
  }

  /** Whether any webhook is enabled. */
  async anyWebhookEnabled(): Promise<boolean> {
    const [row] = await this.dataSource.query<{ any: boolean }[]>(
      'SELECT EXISTS (SELECT 1 FROM webhooks WHERE enabled) AS any',
    );
    return row.any;
  }

  /**
   * Writes incomplete events of a change to these links in `tx`, where taken (asked again here, within the
   * transaction); returns them, in the links' order.
   */
  async insertPending(
    tx: Transaction,
    accountId: number,
    type: LinkEventType,
    linkIds: readonly number[],
    streams: boolean,
  ): Promise<PendingEvents> {
    return tx.query<PendingEvents>(
      `INSERT INTO events (account_id, type, link_id, ready)
       SELECT $1::int, $2::text, link_id, false FROM unnest($3::int[]) WITH ORDINALITY AS l(link_id, ord)
        WHERE ${takenSql('$4', '$1::int', '$2::text')}
        ORDER BY ord
       RETURNING id::text, link_id`,
      [accountId, type, linkIds, streams],
    );
  }

  /** Writes the `link.deleted` events of links deleted in `tx`, where taken. */
  async insertDeleted(
    tx: Transaction,
    accountId: number,
    linkIds: readonly number[],
    streams: boolean,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO events (account_id, type, link_id, data)
       SELECT $1::int, 'link.deleted', link_id, jsonb_build_object('id', link_id) FROM unnest($2::int[]) AS l(link_id)
        WHERE ${takenSql('$3', '$1::int', "'link.deleted'")}`,
      [accountId, linkIds, streams],
    );
  }

  /** Gives pending events their data (JSON texts, by position) and makes them ready to send. */
  async complete(ids: string[], data: string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE events e SET data = d.data, ready = true
         FROM unnest($1::bigint[], $2::jsonb[]) AS d(id, data) WHERE e.id = d.id`,
      [ids, data],
    );
  }
}
