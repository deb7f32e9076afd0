import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';
import { workspaceRollups } from './clicks';
import { scratchDatabase, type ScratchDatabase } from './scratch-database';

/** Clicks of several days, hours and values: each of a link (its place among the test's), time, country, device. */
const CLICKS: [number, string, string | null, string | null][] = [
  [0, '2026-10-03T10:15:00Z', 'GB', 'Desktop'],
  [0, '2026-10-03T10:45:00Z', 'GB', 'Mobile'],
  [1, '2026-10-03T10:05:00Z', 'GB', 'Desktop'],
  [1, '2026-11-20T23:59:59Z', null, null],
  [2, '2026-11-21T00:00:00Z', 'FR', 'Tablet'],
  [3, '2026-10-03T10:30:00Z', 'GB', 'Desktop'],
  [4, '2026-10-03T10:30:00Z', 'GB', 'Desktop'],
  [5, '2026-10-04T08:00:00Z', 'DE', 'Mobile'],
];

/**
 * Destinations as click batches count them, of the first four links: each link's own url (null: code 0), and one
 * destination shared; in the links' rollups, and in their workspace's where there are such (`workspaces`).
 */
function destinations(workspaces: boolean): string {
  const days = `
    INSERT INTO click_days (link_id, dimension, day, value, clicks) SELECT link_id, 9, '2026-10-03', value, clicks FROM t`;
  const rows = `
  WITH t AS (
    SELECT link_id, click_value_id(9::smallint, url) AS value, clicks
      FROM (VALUES ($1::int, NULL, 2), ($2::int, NULL, 1), ($2::int, 'https://example.com/x', 3),
                   ($3::int, 'https://example.com/x', 1), ($4::int, NULL, 1)) AS v(link_id, url, clicks)
  )`;
  if (!workspaces) return `${rows}${days}`;
  return `${rows}, days AS (${days})
  INSERT INTO account_click_days (account_id, dimension, day, value, clicks)
  SELECT l.account_id, 9, '2026-10-03', CASE WHEN t.value = 0 THEN -t.link_id ELSE t.value END, sum(t.clicks)
    FROM t JOIN links l ON l.id = t.link_id GROUP BY 1, 4
  ON CONFLICT (account_id, dimension, day, value) DO UPDATE SET clicks = account_click_days.clicks + excluded.clicks`;
}

/**
 * A database of a test's own, migrated to just before `migration` (one that adds rollups links share), for a test
 * that populates it as the service left it, then applies the migration. Registers the suite's hooks.
 */
export function beforeRollupsMigration(prefix: string, migration: string) {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  let domainId: number | undefined;
  /** The workspaces the test made. */
  const accounts: number[] = [];

  const applied = async () =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM migrations')).map((row) => row.name);

  beforeAll(async () => {
    scratch = await scratchDatabase(prefix);
    dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
    await runMigrations(dataSource);
    await undo();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await scratch?.drop();
  });

  /** Reverts the migration, and every one after it. */
  async function undo(): Promise<void> {
    while ((await applied()).includes(migration)) await dataSource.undoLastMigration();
  }

  /** Applies the migration, and every one after it. */
  async function apply(): Promise<void> {
    expect(await runMigrations(dataSource).then((ran) => ran.map((one) => one.name))).toContain(migration);
  }

  /** A click inserted into the `clicks` view, as an operator or a test writes it. */
  async function click(link: number, at: string, country: string | null, device: string | null) {
    await dataSource.query(
      `INSERT INTO clicks (link_id, created_at, country, device) VALUES ($1, $2, $3, $4)`,
      [link, at, country, device],
    );
  }

  /** Rows of `sql` returning `id`, inserted one statement each. */
  async function insertIds(sql: string, rows: unknown[][]): Promise<number[]> {
    const ids: number[] = [];
    for (const row of rows) ids.push((await dataSource.query<{ id: number }[]>(sql, row))[0].id);
    return ids;
  }

  return {
    db: () => dataSource,
    undo,
    apply,
    /** Workspaces of these names, whose sums {@link expectSums} checks. */
    accounts: async (names: string[]) => {
      const made = await insertIds(
        'INSERT INTO accounts (name) VALUES ($1) RETURNING id',
        names.map((name) => [name]),
      );
      accounts.push(...made);
      return made;
    },
    /** Links on a domain of the test's own: account, alias and space (null for none) each. */
    links: async (links: [number, string, number | null][]) => {
      domainId ??= (
        await insertIds(`INSERT INTO domains (name) VALUES ($1) RETURNING id`, [
          [`${prefix.replace(/_/g, '-')}.example`],
        ])
      )[0];
      return insertIds(
        `INSERT INTO links (account_id, domain_id, alias, url, space_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        links.map(([account, alias, space]) => [
          account,
          domainId,
          alias,
          `https://example.com/${alias}`,
          space,
        ]),
      );
    },
    click,
    /** The clicks of {@link CLICKS} (those of the links given), and the destinations of the first four. */
    populate: async (links: number[]) => {
      for (const [place, at, country, device] of CLICKS) {
        if (place < links.length) await click(links[place], at, country, device);
      }
      const [{ workspaces }] = await dataSource.query<{ workspaces: boolean }[]>(
        `SELECT to_regclass('account_click_days') IS NOT NULL AS workspaces`,
      );
      await dataSource.query(destinations(workspaces), links.slice(0, 4));
    },
    /** The rollups each workspace's links share are the sums of its links' rollups. */
    expectSums: async () => {
      for (const account of accounts) {
        const { stored, summed } = await workspaceRollups(dataSource, account);
        expect(stored).toEqual(summed);
      }
    },
    /** A move or a delete leaves no row of a level's rollups at zero: such rows are gone. */
    expectNoZeroRows: async (level: 'account' | 'space') => {
      const [{ zero }] = await dataSource.query<{ zero: number }[]>(
        `SELECT (SELECT count(*) FROM ${level}_click_hours WHERE clicks = 0)
              + (SELECT count(*) FROM ${level}_click_days WHERE clicks = 0) AS zero`,
      );
      expect(Number(zero)).toBe(0);
    },
  };
}
