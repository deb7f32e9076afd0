import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { rollUp, sharedValue } from './click.repository';

/** The lock that one instance at a time holds while it changes the partitions of raw clicks. */
const PARTITIONS_LOCK = 'click_partitions';
/** A DDL statement waits this long for its lock, then gives up until the next round. */
const DDL_LOCK_TIMEOUT = '1s';
/** Rows of the default partition deleted per statement when they pass the retention. */
const DEFAULT_DELETE_STEP = 10_000;
/** Links rebuilt per transaction by a rebuild of every link. */
export const REBUILD_STEP = 100;

/** A partition of raw clicks and the month it holds. */
interface MonthPartition {
  name: string;
  /** The first instant after the month. */
  end: Date;
}

/** `click_events_2026_11` holds November 2026 (UTC). */
function partitionMonth(name: string): MonthPartition | null {
  const match = /^click_events_(\d{4})_(\d{2})$/.exec(name);
  if (match === null) return null;
  return { name, end: new Date(Date.UTC(Number(match[1]), Number(match[2]), 1)) };
}

/**
 * The raw clicks' storage beside the click statements: monthly partitions, retention, where the raw clicks still
 * held begin, and rebuilding rollups from them.
 */
@Injectable()
export class ClickStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Makes the partitions of these months, and drops the raw clicks before `boundary`, the start of a month (null:
   * none); the names of the partitions dropped. Skipped when another instance is at it.
   */
  async maintainPartitions(months: Date[], boundary: Date | null): Promise<string[]> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query<{ locked: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked',
        [PARTITIONS_LOCK],
      );
      if (!locked) return [];
      await manager.query(`SET LOCAL lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
      for (const month of months) {
        await step(manager, () => manager.query('SELECT click_partition($1)', [month.toISOString()]));
      }
      return boundary === null ? [] : this.dropBefore(manager, boundary);
    });
  }

  /**
   * The first instant from which every raw click is still held: null while none was ever dropped. Stats are exact
   * before it too (from the rollups); raw exports start there.
   */
  async heldSince(): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ dropped_before: Date | null }[]>(
      'SELECT max(dropped_before) AS dropped_before FROM click_retention',
    );
    return row?.dropped_before ?? null;
  }

  /**
   * Recomputes the rollups of links from the raw clicks still held: those of one link, or of every link in steps of
   * {@link REBUILD_STEP} links a transaction. Each step takes its links' counter row locks first, as click batches
   * do, so that no batch of those links commits between the reading and the writing; visits go on, and only the
   * batches of those links wait. The rollups of hours and days before the raw clicks held are kept. Their accounts'
   * and spaces' rollups are then counted again from their links' ({@link recountAccounts}).
   */
  async rebuild(linkId: number | null): Promise<{ links: number; clicks: number }> {
    const since = await this.heldSince();
    let links = 0;
    let clicks = 0;
    let after = 0;
    for (;;) {
      const step = await this.dataSource.transaction(async (manager) => {
        const ids = (
          await manager.query<{ link_id: number }[]>(
            `SELECT link_id FROM link_counters WHERE link_id > $1 AND ($2::int IS NULL OR link_id = $2)
              ORDER BY link_id LIMIT ${REBUILD_STEP} FOR NO KEY UPDATE`,
            [after, linkId],
          )
        ).map((row) => row.link_id);
        if (ids.length === 0) return null;
        const parameters = [ids, since?.toISOString() ?? null];
        await manager.query(CLEAR_ROLLUPS, parameters);
        const [counted] = await manager.query<{ clicks: number }[]>(COUNT_AGAIN, parameters);
        return { ids, clicks: counted.clicks };
      });
      if (step === null) break;
      links += step.ids.length;
      clicks += step.clicks;
      after = step.ids[step.ids.length - 1];
      if (linkId !== null) break;
    }
    await this.recountAccounts(linkId);
    return { links, clicks };
  }

  /**
   * The rollups of the link's account and its spaces (of every account for null) counted again from its links',
   * an account a transaction: they follow whatever a rebuild changed, and are made whole again wherever they went
   * wrong.
   */
  private async recountAccounts(linkId: number | null): Promise<void> {
    let after = 0;
    for (;;) {
      const done = await this.dataSource.transaction(async (manager) => {
        const [account] = await manager.query<{ id: number }[]>(
          linkId === null
            ? 'SELECT id FROM accounts WHERE id > $1 ORDER BY id LIMIT 1'
            : 'SELECT account_id AS id FROM link_counters WHERE link_id = $1',
          [linkId ?? after],
        );
        if (account === undefined) return null;
        for (const statement of RECOUNT_ACCOUNT) await manager.query(statement, [account.id]);
        return account.id;
      });
      if (done === null || linkId !== null) return;
      after = done;
    }
  }

  /**
   * Drops the raw clicks of the months that ended by `boundary`: their partitions whole, and the rows of those
   * months that the default partition holds in steps. Where they begin from then on is recorded once all of it is done.
   */
  private async dropBefore(manager: EntityManager, boundary: Date): Promise<string[]> {
    const partitions = await manager.query<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'click_events'::regclass`,
    );
    const expired = partitions
      .map((row) => partitionMonth(row.name))
      .filter((partition): partition is MonthPartition => partition !== null && partition.end <= boundary)
      .sort((a, b) => a.end.getTime() - b.end.getTime());
    const dropped: string[] = [];
    for (const partition of expired) {
      if (await step(manager, () => manager.query(`DROP TABLE "${partition.name}"`)))
        dropped.push(partition.name);
    }
    for (;;) {
      const deleted = await manager.query<unknown[]>(
        `DELETE FROM click_events_default WHERE ctid IN (
           SELECT ctid FROM click_events_default WHERE created_at < $1 LIMIT ${DEFAULT_DELETE_STEP})
         RETURNING 1`,
        [boundary.toISOString()],
      );
      if (deleted.length < DEFAULT_DELETE_STEP) break;
    }
    if (dropped.length === expired.length) {
      await manager.query(
        `INSERT INTO click_retention (dropped_before) SELECT $1
          WHERE NOT EXISTS (SELECT 1 FROM click_retention WHERE dropped_before >= $1)`,
        [boundary.toISOString()],
      );
    }
    return dropped;
  }
}

/** Runs one DDL statement in a savepoint: false, and the rest of the round goes on, when it could not get its lock. */
async function step(manager: EntityManager, statement: () => Promise<unknown>): Promise<boolean> {
  await manager.query('SAVEPOINT partition_step');
  try {
    await statement();
    await manager.query('RELEASE SAVEPOINT partition_step');
    return true;
  } catch (error) {
    await manager.query('ROLLBACK TO SAVEPOINT partition_step');
    if ((error as { code?: unknown }).code === '55P03') return false;
    throw error;
  }
}

/**
 * The rollups of links ($1) from $2 on (all when null), cleared before they are counted again. $2 is always the
 * start of a month, so days are whole.
 */
const CLEAR_ROLLUPS = `
  WITH hours AS (
    DELETE FROM click_hours WHERE link_id = ANY($1::int[]) AND ($2::timestamptz IS NULL OR hour >= $2::timestamptz)
  )
  DELETE FROM click_days
   WHERE link_id = ANY($1::int[]) AND ($2::timestamptz IS NULL OR day >= ($2::timestamptz AT TIME ZONE 'UTC')::date)`;

/**
 * The rollups of links ($1) counted from their raw clicks at or after $2, by the click statements' own rollup
 * (nothing conflicts: {@link CLEAR_ROLLUPS} ran first); their accounts' and spaces' are counted again afterwards.
 */
const COUNT_AGAIN = `
  WITH kept AS MATERIALIZED (
    SELECT link_id, created_at, profile_id AS profile, target_id AS target FROM click_events
     WHERE link_id = ANY($1::int[]) AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
  ), ${rollUp(null)}
  SELECT count(*)::int AS clicks FROM kept`;

/**
 * The rollups an account's links share (`prefix`: its own, or its spaces', `owners` their key columns after the
 * account), counted again: hours, then days, deleted and replaced by the sums of its links'.
 */
function recount(prefix: 'account' | 'space', owners: string[]): string[] {
  const columns = (rest: string) => ['account_id', ...owners, rest].join(', ');
  const from = ['$1::int', ...owners.map((column) => `c.${column}`)].join(', ');
  const by = (count: number) =>
    Array.from({ length: owners.length + count }, (_, index) => index + 2).join(', ');
  return [
    `DELETE FROM ${prefix}_click_hours WHERE account_id = $1`,
    `INSERT INTO ${prefix}_click_hours (${columns('hour')}, clicks)
     SELECT ${from}, h.hour, sum(h.clicks) FROM click_hours h JOIN link_counters c ON c.link_id = h.link_id
      WHERE c.account_id = $1 GROUP BY ${by(1)}`,
    `DELETE FROM ${prefix}_click_days WHERE account_id = $1`,
    `INSERT INTO ${prefix}_click_days (${columns('dimension, day, value')}, clicks)
     SELECT ${from}, d.dimension, d.day, ${sharedValue('d')}, sum(d.clicks)
       FROM click_days d JOIN link_counters c ON c.link_id = d.link_id
      WHERE c.account_id = $1 GROUP BY ${by(3)}`,
  ];
}

/**
 * An account's rollups ($1) and its spaces' counted again as the sums of its links': the counter rows of all its
 * links locked first, in link order as click batches lock them, so that no click of the account commits between the
 * reading and the writing; then its own, then its spaces', in the order click batches write them.
 */
const RECOUNT_ACCOUNT = [
  'SELECT link_id FROM link_counters WHERE account_id = $1 ORDER BY link_id FOR NO KEY UPDATE',
  ...recount('account', []),
  ...recount('space', ['space_id']),
];
