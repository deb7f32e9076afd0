import type { Client } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';

/** Whatever sends a statement and gives its rows: a data source or one of its query runners. */
type Asks = Pick<DataSource | QueryRunner, 'query'>;

/*
 * The statements about the database server itself rather than the service's data: its settings, the positions of
 * its write-ahead log, notices between sessions, advisory locks and a transaction's own timeout. The machinery of
 * this folder (the change feed, the replicas' lag, migrations, cursors) sends them through these functions.
 */

/** The settings of these names, as the server has them now. */
export function serverSettings(
  db: Asks,
  names: readonly string[],
): Promise<{ name: string; setting: string }[]> {
  return db.query('SELECT name, setting FROM pg_settings WHERE name = ANY ($1)', [names]);
}

/** Runs `work` holding the session advisory lock `id`, released even when the work fails. */
export async function withAdvisoryLock<T>(
  runner: QueryRunner,
  id: number,
  work: () => Promise<T>,
): Promise<T> {
  await runner.query('SELECT pg_advisory_lock($1)', [id]);
  try {
    return await work();
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [id]);
  }
}

/** Gives the transaction under way its own statement timeout, in place of the session's. */
export async function limitTransaction(runner: QueryRunner, timeoutMs: number): Promise<void> {
  await runner.query(`SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`);
}

/** `sql` (of `valueCount` parameters) cut to a window: two more parameters, its size and where it starts. */
export function windowOf(sql: string, valueCount: number): string {
  return `SELECT * FROM (${sql}) AS windowed LIMIT $${valueCount + 1} OFFSET $${valueCount + 2}`;
}

/** Has `client`'s session hear the notices of `channel` (a name of ours, never a caller's text). */
export async function listen(client: Client, channel: string): Promise<void> {
  await client.query(`LISTEN ${channel}`);
}

/** Sends a notice on `channel` to every session that listens to it, once this session's transaction commits. */
export async function notify(client: Client, channel: string, payload: string): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

/** Where the primary's write-ahead log is now: past every write committed so far. */
export async function writePosition(db: Asks): Promise<string> {
  const [row] = (await db.query('SELECT pg_current_wal_lsn()::text AS lsn')) as { lsn: string }[];
  return row.lsn;
}

/** How far a replica has replayed its primary's log (null before any), and whether it is one (in recovery). */
export async function replayPosition(db: Asks): Promise<{ lsn: string | null; recovering: boolean }> {
  const [row] = (await db.query(
    'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovering',
  )) as { lsn: string | null; recovering: boolean }[];
  return row;
}
