import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool, type PoolClient } from 'pg';

/**
 * The bare `pg` baseline of the write scenarios: the rows the service would store for the same requests, inserted
 * with `pg` alone into the same schema (the same indexes and triggers fire), in the same run. What is left between
 * it and the service is the service's own cost: HTTP, validation, the key lookup, the quota, the answer.
 */

/** A link as the create scenario sends it: a URL and a title of its own, so that no title is fetched. */
export interface BareLink {
  url: string;
  title: string;
}

/** Every column the service writes for such a link, in one place for the row-by-row and the set-based insert. */
const COLUMNS = `account_id, domain_id, space_id, alias, url, title, targets_type, targets, sensitive_content,
  privacy, password_hash, redirect_password_hash, active_period_start_at, active_period_end_at, clicks_limit,
  expiration_url, disabled`;
const DEFAULTS = 'NULL, NULL, false, 0, NULL, NULL, NULL, NULL, NULL, NULL, false';

const ALIAS_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random alias as the service makes them: five characters, one more after each collision. */
function randomAlias(length: number): string {
  let alias = '';
  for (let index = 0; index < length; index += 1) alias += ALIAS_ALPHABET[randomInt(ALIAS_ALPHABET.length)];
  return alias;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** A pool of `connections` connections, all opened before anything is timed. */
async function openPool(url: string, connections: number): Promise<Pool> {
  // The harness's own application name: not counted among the service's connections.
  const pool = new Pool({ connectionString: url, max: connections, application_name: 'shortlink-bench' });
  pool.on('error', () => undefined);
  const clients: PoolClient[] = [];
  for (let index = 0; index < connections; index += 1) clients.push(await pool.connect());
  for (const client of clients) client.release();
  return pool;
}

export interface BareRun {
  inserted: number;
  seconds: number;
  latenciesMs: number[];
}

/**
 * One INSERT per link, in autocommit, over `connections` connections at once, as a client of `pg` would write
 * them; a random alias that is taken is drawn again, one character longer.
 */
export async function insertOneByOne(
  url: string,
  target: { accountId: number; domainId: number },
  links: (index: number) => BareLink,
  total: number,
  connections: number,
): Promise<BareRun> {
  const pool = await openPool(url, connections);
  const sql = `INSERT INTO links (${COLUMNS}) VALUES ($1, $2, NULL, $3, $4, $5, ${DEFAULTS}) RETURNING id`;
  const run: BareRun = { inserted: 0, seconds: 0, latenciesMs: [] };
  let next = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (next < total) {
        const link = links(next);
        next += 1;
        const started = performance.now();
        for (let length = 5; ; length += 1) {
          try {
            await client.query(sql, [
              target.accountId,
              target.domainId,
              randomAlias(length),
              link.url,
              link.title,
            ]);
            break;
          } catch (error) {
            if (!isUniqueViolation(error) || length > 12) throw error;
          }
        }
        run.latenciesMs.push(performance.now() - started);
        run.inserted += 1;
      }
    } finally {
      client.release();
    }
  };
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: Math.min(connections, total) }, worker));
  } finally {
    run.seconds = (performance.now() - started) / 1000;
    await pool.end();
  }
  return run;
}

/** `times` statements of `size` links each, one after another: the least a bulk create can cost. */
export async function insertInBulk(
  url: string,
  target: { accountId: number; domainId: number },
  links: (index: number) => BareLink,
  size: number,
  times: number,
): Promise<BareRun> {
  const pool = await openPool(url, 1);
  const sql = `
    INSERT INTO links (${COLUMNS})
    SELECT $1, $2, NULL, alias, url, title, ${DEFAULTS}
      FROM unnest($3::text[], $4::text[], $5::text[]) AS t(alias, url, title)
    RETURNING id`;
  const run: BareRun = { inserted: 0, seconds: 0, latenciesMs: [] };
  try {
    for (let time = 0; time < times; time += 1) {
      const batch = Array.from({ length: size }, (_, index) => links(time * size + index));
      const started = performance.now();
      for (let length = 6; ; length += 1) {
        try {
          const { rowCount } = await pool.query(sql, [
            target.accountId,
            target.domainId,
            batch.map(() => randomAlias(length)),
            batch.map((link) => link.url),
            batch.map((link) => link.title),
          ]);
          run.inserted += rowCount ?? 0;
          break;
        } catch (error) {
          if (!isUniqueViolation(error) || length > 12) throw error;
        }
      }
      const ms = performance.now() - started;
      run.latenciesMs.push(ms);
      run.seconds += ms / 1000;
    }
  } finally {
    await pool.end();
  }
  return run;
}
