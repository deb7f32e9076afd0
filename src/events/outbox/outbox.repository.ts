import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Transaction } from '../../database/transactions';
import { STREAM_INTEREST_MS, streamHeldSql, type LinkEventType } from './event';

/** Events written with a change, to be given their data once it is committed: by event id, the link's id. */
export type PendingEvents = { id: string; link_id: number }[];

/**
 * The rule that decides whether an event is written, in SQL, for every statement that writes events: the brokers'
 * streams take every event (`streams`, a boolean parameter); otherwise an enabled webhook of the account that takes
 * its type, or an API event stream of the account open now or within the hold (`events/stream/`), which takes
 * every type.
 * `account` and `type` are SQL expressions (a column, a parameter, a quoted literal). Both lookups are by the
 * account's index, and the second finds no row for an account that never opened a stream.
 */
export function takenSql(streams: string, account: string, type: string): string {
  return `(${streams}::boolean OR EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = ${account} AND w.enabled
                                            AND ${type} = ANY (w.events))
          OR EXISTS (SELECT 1 FROM event_streams s WHERE s.account_id = ${account} AND ${streamHeldSql('s')}))`;
}

/**
 * For how many more milliseconds the API's event streams hold events (of the account `account`, an SQL expression,
 * or of any account without one): null or not above 0 when none does.
 */
function streamHeldMsSql(account?: string): string {
  const where = account === undefined ? '' : ` WHERE s.account_id = ${account}`;
  return `(SELECT (extract(epoch FROM max(s.seen_at) - now()) * 1000)::float8 + ${STREAM_INTEREST_MS}
             FROM event_streams s${where})`;
}

/** Who takes events, as the outbox asks: what webhooks take, and how long streams still hold events. */
export interface Takers<T> {
  /** What the enabled webhooks take. */
  webhooks: T;
  /** Milliseconds for which an API event stream still holds events; null (or not above 0) when none does. */
  streamMs: number | null;
}

/** The outbox's writes with the changes to links, and who takes which events. */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The event types the account's enabled webhooks take (each once per webhook), and its streams' hold. */
  async eventsTakenBy(accountId: number): Promise<Takers<string[]>> {
    const [row] = await this.dataSource.query<{ events: string[]; stream_ms: number | null }[]>(
      `SELECT ARRAY(SELECT unnest(events) FROM webhooks WHERE account_id = $1 AND enabled) AS events,
              ${streamHeldMsSql('$1')} AS stream_ms`,
      [accountId],
    );
    return { webhooks: row.events, streamMs: row.stream_ms };
  }

  /** Whether any enabled webhook takes click events, and the streams' hold. */
  async clicksTaken(): Promise<Takers<boolean>> {
    const [row] = await this.dataSource.query<{ taken: boolean; stream_ms: number | null }[]>(
      `SELECT EXISTS (SELECT 1 FROM webhooks WHERE enabled
                        AND events && ARRAY['link.clicked', 'link.limit_reached']::text[]) AS taken,
              ${streamHeldMsSql()} AS stream_ms`,
    );
    return { webhooks: row.taken, streamMs: row.stream_ms };
  }

  /** Whether any webhook is enabled, and the streams' hold. */
  async anyTaker(): Promise<Takers<boolean>> {
    const [row] = await this.dataSource.query<{ any: boolean; stream_ms: number | null }[]>(
      `SELECT EXISTS (SELECT 1 FROM webhooks WHERE enabled) AS any, ${streamHeldMsSql()} AS stream_ms`,
    );
    return { webhooks: row.any, streamMs: row.stream_ms };
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
