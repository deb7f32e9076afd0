import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returnedRows } from '../../database/returned-rows';
import type { Transaction } from '../../database/transactions';
import { CheckStatus } from './link-check.entity';

/** A link's health as its representation shows it. */
export interface StoredHealth {
  status: CheckStatus;
  httpStatus: number | null;
  checkedAt: Date | null;
}

/** A check handed to this instance: the link, its target as claimed, and what the last check said. */
export interface ClaimedCheck {
  linkId: number;
  accountId: number;
  url: string;
  status: CheckStatus;
  /** 1: this is the second try of a check that failed. */
  failures: number;
}

/** What a finished check writes. */
export interface CheckOutcome {
  status: CheckStatus;
  httpStatus: number | null;
  /** When the link is next due. */
  nextAt: Date;
}

/** Serialises the claims of every instance (`pg_try_advisory_xact_lock`): one hands out checks at a time. */
const CLAIM_LOCK = 0x4c4b4348;

/**
 * The checks due, handed out in one statement that asks every host at most once in each second (of the database's
 * clock), whatever the number of instances (their claims take turns on a lock):
 *
 * - `due`: the oldest due rows, at most `$1`, locked (rows another claim holds are skipped);
 * - `taken`: the first row of each host that may be asked now (`link_check_hosts.next_at`, the next whole second,
 *   passed), at most `$2` (what this instance has room for), leased until `$3`;
 * - the other rows of a host taken now, or not free yet, are booked a second each after the host's last booked
 *   second (`booked_until`), so that one host's backlog leaves the head of the queue once and never holds up the
 *   others; each comes due at its own second, when its host is free again. The rows of a free host that found no
 *   room stay due.
 *
 * `$4`: the accounts whose links are checked (null: all).
 */
const CLAIM = `
  WITH due AS MATERIALIZED (
    SELECT c.link_id, c.host, c.due_at FROM link_checks c
     WHERE c.due_at <= now() AND ($4::int[] IS NULL OR c.account_id = ANY ($4::int[]))
     ORDER BY c.due_at LIMIT $1 FOR UPDATE SKIP LOCKED
  ), ranked AS MATERIALIZED (
    SELECT d.link_id, d.host, d.due_at, coalesce(h.next_at <= now(), true) AS host_free,
           greatest(h.next_at, h.booked_until + interval '1 second') AS booked_from,
           row_number() OVER (PARTITION BY d.host ORDER BY d.due_at, d.link_id) AS turn
      FROM due d LEFT JOIN link_check_hosts h ON h.host = d.host
  ), taken AS MATERIALIZED (
    SELECT link_id, host FROM ranked WHERE turn = 1 AND host_free ORDER BY due_at, link_id LIMIT $2
  ), planned AS MATERIALIZED (
    SELECT r.link_id, r.host, t.link_id IS NOT NULL AS taken,
           CASE WHEN t.link_id IS NOT NULL THEN $3::timestamptz
                WHEN r.host IN (SELECT host FROM taken)
                THEN greatest(date_trunc('second', now()) + interval '1 second', r.booked_from)
                     + (r.turn - 2) * interval '1 second'
                ELSE r.booked_from + (r.turn - 1) * interval '1 second' END AS due_at
      FROM ranked r LEFT JOIN taken t ON t.link_id = r.link_id
     WHERE t.link_id IS NOT NULL OR NOT r.host_free OR r.host IN (SELECT host FROM taken)
  ), spaced AS (
    INSERT INTO link_check_hosts AS h (host, next_at, booked_until)
    SELECT host, date_trunc('second', now()) + interval '1 second', max(due_at) FILTER (WHERE NOT taken)
      FROM planned GROUP BY host
    ON CONFLICT (host) DO UPDATE
      SET next_at = CASE WHEN h.next_at <= now() THEN excluded.next_at ELSE h.next_at END,
          booked_until = coalesce(excluded.booked_until, h.booked_until)
  ), moved AS (
    UPDATE link_checks c SET due_at = p.due_at FROM planned p WHERE c.link_id = p.link_id
  )
  SELECT c.link_id, c.account_id, l.url, c.status, c.failures
    FROM taken t JOIN link_checks c ON c.link_id = t.link_id JOIN links l ON l.id = t.link_id`;

/** The checks of links' targets: handing them out, writing what they found, and reading it for responses. */
@Injectable()
export class LinkHealthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Up to `room` checks due now, leased until `leaseUntil`, among the `window` oldest due (see {@link CLAIM});
   * none while another instance is claiming.
   */
  async claim(
    room: number,
    window: number,
    leaseUntil: Date,
    accountIds: readonly number[] | null,
  ): Promise<ClaimedCheck[]> {
    return this.dataSource.transaction(async (tx) => {
      const [{ locked }] = await tx.query<{ locked: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock($1) AS locked',
        [CLAIM_LOCK],
      );
      if (!locked) return [];
      const rows = await tx.query<
        { link_id: number; account_id: number; url: string; status: number; failures: number }[]
      >(CLAIM, [window, room, leaseUntil, accountIds]);
      return rows.map((row) => ({
        linkId: row.link_id,
        accountId: row.account_id,
        url: row.url,
        status: row.status,
        failures: row.failures,
      }));
    });
  }

  /**
   * Writes a finished check in `tx`, unless the link's target changed meanwhile (its check starts over) or the
   * link is gone; returns the status it had before, or null when nothing was written.
   */
  async record(tx: Transaction, check: ClaimedCheck, outcome: CheckOutcome): Promise<CheckStatus | null> {
    const rows = await returnedRows<{ before: number }>(
      tx.query(
        `WITH checked AS (
         SELECT c.link_id, c.status AS before FROM link_checks c JOIN links l ON l.id = c.link_id
          WHERE c.link_id = $1 AND l.url = $2 FOR UPDATE OF c
       )
       UPDATE link_checks c SET status = $3, http_status = $4, checked_at = now(), due_at = $5, failures = 0
         FROM checked WHERE c.link_id = checked.link_id
       RETURNING checked.before`,
        [check.linkId, check.url, outcome.status, outcome.httpStatus, outcome.nextAt],
      ),
    );
    return rows.length === 0 ? null : rows[0].before;
  }

  /** A failed check is tried once more at `retryAt`, its verdict kept until then. */
  async retryLater(check: ClaimedCheck, retryAt: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE link_checks c SET failures = 1, due_at = $3
         FROM links l WHERE c.link_id = $1 AND l.id = c.link_id AND l.url = $2`,
      [check.linkId, check.url, retryAt],
    );
  }

  /** Checks stopped by a shutdown are due again at once, for the next instance to take. */
  async release(linkIds: readonly number[]): Promise<void> {
    if (linkIds.length === 0) return;
    await this.dataSource.query('UPDATE link_checks SET due_at = now() WHERE link_id = ANY ($1::int[])', [
      linkIds,
    ]);
  }

  /** Forgets the hosts free for an hour: each has a row only while its checks are being spaced. */
  async pruneHosts(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM link_check_hosts
        WHERE next_at < now() - interval '1 hour' AND coalesce(booked_until, next_at) < now() - interval '1 hour'`,
    );
  }

  /** The health of each link, by id: one query for any number. */
  async healthOf(linkIds: readonly number[]): Promise<Map<number, StoredHealth>> {
    const health = new Map<number, StoredHealth>();
    if (linkIds.length === 0) return health;
    const rows = await this.dataSource.query<
      { link_id: number; status: number; http_status: number | null; checked_at: Date | null }[]
    >('SELECT link_id, status, http_status, checked_at FROM link_checks WHERE link_id = ANY ($1::int[])', [
      linkIds,
    ]);
    for (const row of rows) {
      health.set(row.link_id, {
        status: row.status,
        httpStatus: row.http_status,
        checkedAt: row.checked_at,
      });
    }
    return health;
  }
}
