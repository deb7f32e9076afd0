import type { Pool } from 'pg';

/**
 * The bulk links of a bench run, made with SQL, and the one place that knows where the schema keeps a link's
 * counters: on `links` itself, or in a `link_counters` table beside it. Everything else (the account, spaces,
 * the pixel, the custom domain and the special links) is made through the API, as a user would.
 */

export interface Schema {
  /** `links` has its own `clicks` column. */
  linksHasClicks: boolean;
  /** The columns of `link_counters`, when that table exists. */
  counterColumns: ReadonlySet<string> | null;
}

export async function readSchema(db: Pool): Promise<Schema> {
  const { rows } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name IN ('links', 'link_counters')`,
  );
  const linkColumns = new Set(rows.filter((row) => row.table_name === 'links').map((row) => row.column_name));
  const counterColumns = new Set(
    rows.filter((row) => row.table_name === 'link_counters').map((row) => row.column_name),
  );
  return {
    linksHasClicks: linkColumns.has('clicks'),
    counterColumns: counterColumns.size === 0 ? null : counterColumns,
  };
}

/** The click counter of the link aliased `link` in a query, wherever the schema keeps it. */
export function clicksOf(schema: Schema, link = 'l'): string {
  if (schema.counterColumns?.has('clicks') === true) {
    return `COALESCE((SELECT c.clicks FROM link_counters c WHERE c.link_id = ${link}.id), 0)`;
  }
  if (schema.linksHasClicks) return `${link}.clicks`;
  throw new Error(
    'Neither links.clicks nor link_counters.clicks exists: the bench does not know this schema',
  );
}

/** What the bulk links point at: made through the API before seeding. */
export interface SeedTargets {
  accountId: number;
  systemDomainId: number;
  customDomainId: number;
  spaceIds: readonly [number, number, number];
  pixelId: number;
}

/**
 * Seeded link number n: alias `b-n` (a dash, which random aliases never have), and every list filter matched by a
 * known share of links. Kept beside {@link isPlainSeed}, its twin in TypeScript.
 */
const SEED_COLUMNS: Record<string, string> = {
  account_id: '$1::int',
  domain_id: 'CASE WHEN n % 10 = 5 THEN $3::int ELSE $2::int END',
  space_id: 'CASE n % 4 WHEN 0 THEN NULL WHEN 1 THEN $4::int WHEN 2 THEN $5::int ELSE $6::int END',
  alias: `'b-' || n`,
  url: `'https://example.com/p/' || n || '?c=' || (n % 97)`,
  // "tagNNN-" finds 1 link in 1,000; "bench" finds every seeded link.
  title: `'Bench link ' || n || ' tag' || lpad((n % 1000)::text, 3, '0') || '-'`,
  disabled: 'n % 50 = 0',
  // Expired by its period, or inside a period that is still running.
  active_period_start_at: `CASE n % 30 WHEN 1 THEN now() - interval '2 days' WHEN 2 THEN now() - interval '1 day' END`,
  active_period_end_at: `CASE n % 30 WHEN 1 THEN now() - interval '1 day' WHEN 2 THEN now() + interval '365 days' END`,
  // Half of the limited links have reached their limit.
  clicks_limit: 'CASE WHEN n % 40 = 3 THEN 10 END',
};
const SEED_CLICKS = 'CASE WHEN n % 40 = 3 THEN n % 20 ELSE (n::bigint * 7919 % 10007)::int END';
const SEED_HAS_PIXEL = 'n % 20 = 7';

/** A seeded link that a visit simply redirects and counts: enabled, no period, limit, pixel or custom domain. */
export function isPlainSeed(n: number): boolean {
  return n % 50 !== 0 && n % 30 !== 1 && n % 30 !== 2 && n % 40 !== 3 && n % 20 !== 7 && n % 10 !== 5;
}

export function seedAlias(n: number): string {
  return `b-${n}`;
}

export function seedUrl(n: number): string {
  return `https://example.com/p/${n}?c=${n % 97}`;
}

/** Inserts seeded links `from`..`to` (inclusive) in one statement, then their counters and pixels. */
export async function seedLinks(
  db: Pool,
  schema: Schema,
  targets: SeedTargets,
  from: number,
  to: number,
): Promise<void> {
  if (to < from) return;
  const { rows } = await db.query<{ max: number }>('SELECT COALESCE(max(id), 0)::int AS max FROM links');
  const before = rows[0].max;
  const columns: Record<string, string> = schema.linksHasClicks
    ? { ...SEED_COLUMNS, clicks: SEED_CLICKS }
    : SEED_COLUMNS;
  const names = Object.keys(columns);
  const [space1, space2, space3] = targets.spaceIds;
  await db.query(
    `INSERT INTO links (${names.map((name) => `"${name}"`).join(', ')})
     SELECT ${names.map((name) => columns[name]).join(', ')} FROM generate_series($7::int, $8::int) AS n`,
    [targets.accountId, targets.systemDomainId, targets.customDomainId, space1, space2, space3, from, to],
  );
  const seeded = `FROM (SELECT id, account_id, substr(alias, 3)::int AS n FROM links WHERE id > $1) s`;
  await db.query(
    `INSERT INTO link_pixels (link_id, pixel_id) SELECT id, $2 ${seeded} WHERE ${SEED_HAS_PIXEL}`,
    [before, targets.pixelId],
  );

  const counters = schema.counterColumns;
  if (counters !== null) {
    // A trigger may already have made each link's row: set its clicks; make the rows that are missing.
    // Where lists sort by a copy of the clicks, the copy is up to date, as a list leaves it.
    const clickColumns = ['clicks', 'listed_clicks'].filter((column) => counters.has(column));
    if (clickColumns.length > 0) {
      const set = clickColumns.map((column) => `${column} = ${SEED_CLICKS}`).join(', ');
      await db.query(`UPDATE link_counters c SET ${set} ${seeded} WHERE c.link_id = s.id`, [before]);
    }
    const insert: Record<string, string> = { link_id: 'id' };
    if (counters.has('account_id')) insert.account_id = 'account_id';
    for (const column of clickColumns) insert[column] = SEED_CLICKS;
    await db.query(
      `INSERT INTO link_counters (${Object.keys(insert).join(', ')})
       SELECT ${Object.values(insert).join(', ')} ${seeded}
        WHERE NOT EXISTS (SELECT 1 FROM link_counters c WHERE c.link_id = s.id)`,
      [before],
    );
  }
  // Fresh statistics, as a long-lived database has: the planner's choices are part of what is measured.
  for (const table of ['links', 'link_pixels', ...(counters === null ? [] : ['link_counters'])]) {
    await db.query(`VACUUM ANALYZE ${table}`);
  }
}
