import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { VISIT_CACHE_CHANNEL } from '../../database/change-feed';
import { STREAMS_CHANGED } from '../outbox/event-interest';
import { STREAM_HOLD_MS, STREAM_LEASE_MS, STREAM_INTEREST_MS, streamHeldSql } from '../outbox/event';
import type { StreamPosition } from './stream-position';

/** The first key of an account's lock of stream opens (`pg_advisory_xact_lock(OPEN_LOCK, account)`). */
const OPEN_LOCK = 0x45765374;

/** An event as a stream reads it: where it stands, whose it is, and whether its data is there yet. */
export interface StreamRow {
  id: string;
  txid: string;
  account_id: number;
  type: string;
  link_id: number | null;
  ready: boolean;
  /** Written before the caller's `staleBefore`: a change's event that its request did not complete. */
  stale: boolean;
}

/** The columns of a stream row, `stale` the parameter of the caller's `staleBefore`. */
function rowColumns(stale: string): string {
  return `e.id::text AS id, e.txid::text AS txid, e.account_id, e.type, e.link_id, e.ready,
          e.created_at < ${stale} AS stale`;
}

/**
 * The event streams' reads of the outbox and their rows (`event_streams`), in SQL tuned for them.
 *
 * Order: ids are taken when an event is written, not when its transaction commits, so a transaction that commits
 * late leaves a lower id behind ids already readable, and a reader by id alone would pass over it for good. So every
 * read takes, in the same statement, its snapshot's oldest running transaction (`pg_snapshot_xmin`) and reads only
 * events of older transactions, in (`txid`, `id`) order: those are all committed (or never will be), and every
 * event still to come belongs to a transaction at least as new, so it sorts after whatever was read. The price is
 * that events wait for every transaction older than theirs, whatever it writes: a write held open for long delays
 * the streams (never loses an event), as `idle_in_transaction_session_timeout` bounds. Each read is a range of
 * `IDX_events_position` past the reader's position.
 */
@Injectable()
export class EventStreamRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Opens a stream of the account, unless it has `limit` open already on all instances (a stream not refreshed
   * within the lease, of an instance that crashed, no longer counts). `started`: the account's events were not held
   * until now, and every instance is told (the notice goes with the commit), so that their changes write events
   * from now on. One open of an account at a time, so that two cannot both take its last place.
   */
  async open(id: string, accountId: number, limit: number): Promise<{ opened: boolean; started: boolean }> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [OPEN_LOCK, accountId]);
      const [row] = await manager.query<{ opened: boolean; held: boolean }[]>(
        `WITH mine AS (
           SELECT count(*) FILTER (WHERE s.closed_at IS NULL
                                     AND s.seen_at > now() - interval '${STREAM_LEASE_MS} milliseconds') AS open,
                  COALESCE(bool_or(${streamHeldSql('s')}), false) AS held
             FROM event_streams s WHERE s.account_id = $2
         ), opened AS (
           INSERT INTO event_streams (id, account_id) SELECT $1, $2 FROM mine WHERE mine.open < $3 RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM opened) AS opened, (SELECT held FROM mine) AS held`,
        [id, accountId, limit],
      );
      const started = row.opened && !row.held;
      if (started) await manager.query('SELECT pg_notify($1, $2)', [VISIT_CACHE_CHANNEL, STREAMS_CHANGED]);
      return { opened: row.opened, started };
    });
  }

  /**
   * Streams still open: seen now. Rows past the interest (closed, or of a crashed instance, an hour and more ago)
   * are removed meanwhile: whichever instance does it, it is the same small delete.
   */
  async refresh(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) {
      await this.dataSource.query(
        'UPDATE event_streams SET seen_at = now() WHERE id = ANY ($1::uuid[]) AND closed_at IS NULL',
        [ids],
      );
    }
    await this.dataSource.query(
      `DELETE FROM event_streams WHERE seen_at < now() - interval '${STREAM_INTEREST_MS} milliseconds'`,
    );
  }

  /** Streams closed: they no longer count against the bound, and hold their account's events for the hold. */
  async close(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      'UPDATE event_streams SET closed_at = now(), seen_at = now() WHERE id = ANY ($1::uuid[])',
      [ids],
    );
  }

  /**
   * Where a new stream of the account starts: past every transaction older than the oldest running one, and the
   * ids of the account's events already committed by newer ones, which came before the stream too.
   */
  async start(accountId: number): Promise<{ horizon: string; seen: StreamPosition[] }> {
    const rows = await this.dataSource.query<{ horizon: string; id: string | null; txid: string | null }[]>(
      `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
       SELECT h.horizon::text AS horizon, e.id::text AS id, e.txid::text AS txid
         FROM h LEFT JOIN events e ON e.txid >= h.horizon AND e.account_id = $1`,
      [accountId],
    );
    return {
      horizon: rows[0].horizon,
      seen: rows.flatMap((row) => (row.id === null ? [] : [{ txid: row.txid!, id: row.id }])),
    };
  }

  /**
   * The position of the account's event `publicId`, if a stream may resume after it: written within the hold (a
   * client that had it had a stream open then, so its account's events are all written since), or while a stream
   * of the account still holding events was open. Null for another account's event, one gone, or one older.
   */
  async resumableAt(accountId: number, publicId: string): Promise<StreamPosition | null> {
    const [row] = await this.dataSource.query<StreamPosition[]>(
      `SELECT e.txid::text AS txid, e.id::text AS id FROM events e
        WHERE e.public_id = $1 AND e.account_id = $2 AND e.txid IS NOT NULL
          AND (e.created_at > now() - interval '${STREAM_HOLD_MS} milliseconds'
               OR EXISTS (SELECT 1 FROM event_streams s
                           WHERE s.account_id = $2 AND s.opened_at <= e.created_at AND ${streamHeldSql('s')}))`,
      [publicId, accountId],
    );
    return row ?? null;
  }

  /** The position past every transaction older than the oldest running one. */
  async horizon(): Promise<string> {
    const [row] = await this.dataSource.query<{ horizon: string }[]>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon',
    );
    return row.horizon;
  }

  /**
   * Up to `limit` events of these accounts after `from`, in stream order, of transactions older than any running
   * (see the class), with that horizon: everything before it not returned is another account's.
   */
  async after(
    from: StreamPosition,
    accountIds: readonly number[],
    limit: number,
    staleBefore: Date,
  ): Promise<{ horizon: string; rows: StreamRow[] }> {
    const rows = await this.dataSource.query<({ horizon: string } & Partial<StreamRow>)[]>(
      `WITH h AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
       SELECT h.horizon::text AS horizon, r.* FROM h LEFT JOIN LATERAL (
         SELECT ${rowColumns('$5')} FROM events e
          WHERE (e.txid, e.id) > ($1::xid8, $2::bigint) AND e.txid < h.horizon AND e.account_id = ANY ($3::int[])
          ORDER BY e.txid, e.id LIMIT $4
       ) r ON true`,
      [from.txid, from.id, accountIds, limit, staleBefore],
    );
    return {
      horizon: rows[0].horizon,
      rows: rows.filter((row) => row.id !== null && row.id !== undefined) as StreamRow[],
    };
  }

  /** Up to `limit` of the account's events after `from` and up to `to` (a position read before), in stream order. */
  async between(
    accountId: number,
    from: StreamPosition,
    to: StreamPosition,
    limit: number,
    staleBefore: Date,
  ): Promise<StreamRow[]> {
    return this.dataSource.query<StreamRow[]>(
      `SELECT ${rowColumns('$7')} FROM events e
        WHERE (e.txid, e.id) > ($2::xid8, $3::bigint) AND (e.txid, e.id) <= ($4::xid8, $5::bigint)
          AND e.account_id = $1
        ORDER BY e.txid, e.id LIMIT $6`,
      [accountId, from.txid, from.id, to.txid, to.id, limit, staleBefore],
    );
  }

  /** The space each of the account's links is in now (null for none); a link not found is left out. */
  async linkSpaces(accountId: number, linkIds: readonly number[]): Promise<Map<number, number | null>> {
    if (linkIds.length === 0) return new Map();
    const rows = await this.dataSource.query<{ id: number; space_id: number | null }[]>(
      'SELECT id, space_id FROM links WHERE account_id = $1 AND id = ANY ($2::int[])',
      [accountId, linkIds],
    );
    return new Map(rows.map((row) => [row.id, row.space_id]));
  }

  /**
   * The space each link of these `link.deleted` events was in when it was deleted, by link id: the audit entry of
   * the deletion holds the row as it was, and was written by the same transaction, so at the same `created_at`
   * (which its index finds). A deletion without an entry (no one named as its actor) is left out.
   */
  async deletedSpaces(eventIds: readonly string[]): Promise<Map<number, number | null>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.dataSource.query<{ link_id: number; space_id: number | null }[]>(
      `SELECT e.link_id, (a.changes -> 'space_id' ->> 0)::int AS space_id
         FROM events e
         CROSS JOIN LATERAL (
           SELECT changes FROM audit_log a
            WHERE a.created_at = e.created_at AND a.account_id = e.account_id AND a.target_type = 'link'
              AND a.target_id = e.link_id AND a.action = 'link.deleted'
            LIMIT 1
         ) a
        WHERE e.id = ANY ($1::bigint[]) AND e.link_id IS NOT NULL`,
      [eventIds],
    );
    return new Map(rows.map((row) => [row.link_id, row.space_id]));
  }
}
