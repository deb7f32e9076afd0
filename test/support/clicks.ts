import { parse } from 'csv-parse/sync';
import type { DataSource } from 'typeorm';
import type { TestAccount, TestApp } from './app';
import type { ClickRow } from './visitors';

export const DAY_MS = 86_400_000;

/** `Y-m-d` of a UTC day, `offset` days from today. */
export function day(offset = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + offset * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

/** A click to write: its time (now when absent) and what the visitor was (null when absent). */
export type ClickSeed = { created_at?: string } & Partial<Omit<ClickRow, 'id' | 'link_id' | 'created_at'>>;

/** Clicks and link ages written straight into the database, for the stats a test reads back. */
export function clickFixtures(app: () => TestApp) {
  /** Clicks straight into the table, with the time and dimensions given (now, and nulls, by default). */
  async function insertClicks(linkId: number, clicks: ClickSeed[]): Promise<void> {
    // Every column one of the clicks sets, and the time, which is now where a click sets none.
    const columns = [
      ...new Set(['created_at', ...clicks.flatMap((click) => Object.keys(click))]),
    ] as (keyof ClickSeed)[];
    const params: unknown[] = [linkId];
    const rows = clicks.map((click) => {
      const placeholders = columns.map((column) => {
        params.push(click[column] ?? null);
        return column === 'created_at'
          ? `COALESCE($${params.length}::timestamptz, now())`
          : `$${params.length}`;
      });
      return `($1, ${placeholders.join(', ')})`;
    });
    await app().dataSource.query(
      `INSERT INTO clicks (link_id, ${columns.join(', ')}) VALUES ${rows.join(', ')}`,
      params,
    );
  }

  /** The link's creation, moved back, so that the default range starts that many days ago. */
  async function madeDaysAgo(linkId: number, days: number): Promise<void> {
    await app().dataSource.query(
      `UPDATE links SET created_at = now() - make_interval(days => $2) WHERE id = $1`,
      [linkId, days],
    );
  }

  return { insertClicks, madeDaysAgo };
}

/** A click as the click export writes it: its time, then what was recorded of the visitor (null where nothing). */
export type ExportedClick = Record<Exclude<keyof ClickRow, 'id' | 'link_id'>, string | null>;

/**
 * A link's recorded clicks, oldest first, read as a client reads them: through `GET /api/v1/stats/{id}/export`,
 * which writes what this instance still holds first. Independent of how the clicks are stored.
 */
export async function exportedClicks(
  t: TestApp,
  account: TestAccount,
  linkId: number,
): Promise<ExportedClick[]> {
  const response = await t
    .http()
    .get(`/api/v1/stats/${linkId}/export`)
    .set('Authorization', account.auth)
    .buffer(true)
    .parse((answer, done) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => done(null, text));
    });
  if (response.status !== 200) throw new Error(`The click export answered ${response.status}`);
  const [header, ...lines] = parse(response.body as string);
  // An empty cell is a value nobody knows: no referrer, host or name is ever empty.
  return lines.map(
    (line) =>
      Object.fromEntries(
        header.map((name, index) => [name, line[index] === '' ? null : line[index]]),
      ) as ExportedClick,
  );
}

/** The rollups a workspace's links share: its own, and its spaces' (0 for the links in none), by what keys them. */
const SHARED_LEVELS = [
  { level: 'account', stored: '0', summed: '0' },
  { level: 'space', stored: 'space_id', summed: 'COALESCE(l.space_id, 0)' },
] as const;

/**
 * The rollups a workspace's links share as stored (its own, and its spaces'), and the sums of its links' rollups in
 * the same shape, each link counted in the space it is in now (a target's own url kept per link, as the negated
 * link id): the two are equal whatever wrote the clicks and whatever happened to the links since.
 */
export async function workspaceRollups(
  dataSource: DataSource,
  accountId: number,
): Promise<{ stored: unknown[]; summed: unknown[] }> {
  const stored = await dataSource.query<unknown[]>(
    `${SHARED_LEVELS.map(
      ({ level, stored: space }) =>
        `SELECT '${level}' AS level, ${space} AS space, 0 AS dimension, hour::text AS at, 0 AS value, clicks::int
           FROM ${level}_click_hours WHERE account_id = $1
         UNION ALL
         SELECT '${level}', ${space}, dimension, day::text, value, clicks::int FROM ${level}_click_days WHERE account_id = $1`,
    ).join(' UNION ALL ')}
     ORDER BY 1, 2, 3, 4, 5`,
    [accountId],
  );
  const summed = await dataSource.query<unknown[]>(
    `${SHARED_LEVELS.map(
      ({ level, summed: space }) =>
        `SELECT '${level}' AS level, ${space} AS space, 0 AS dimension, h.hour::text AS at, 0 AS value,
                sum(h.clicks)::int AS clicks
           FROM click_hours h JOIN links l ON l.id = h.link_id WHERE l.account_id = $1 GROUP BY 2, 4
         UNION ALL
         SELECT '${level}', ${space}, d.dimension, d.day::text,
                CASE WHEN d.dimension = 9 AND d.value = 0 THEN -d.link_id ELSE d.value END, sum(d.clicks)::int
           FROM click_days d JOIN links l ON l.id = d.link_id WHERE l.account_id = $1 GROUP BY 2, 3, 4, 5`,
    ).join(' UNION ALL ')}
     ORDER BY 1, 2, 3, 4, 5`,
    [accountId],
  );
  return { stored, summed };
}
