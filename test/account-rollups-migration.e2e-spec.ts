import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { workspaceRollups } from './support/clicks';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';

const ROLLUPS = 'AccountClickRollups1766260000000';

/**
 * The migration to workspace rollups, on a database as the service left it before: two workspaces, links with
 * clicks of several days, hours and values, and destinations (a link's own url, another's). It fills the
 * workspaces' rollups with the sums of their links'; from then on a click, a delete and a move keep them so; it
 * reverts to the schema of before, which records clicks as it did.
 */
describe('the migration to workspace rollups, on a populated database', () => {
  let scratch: ScratchDatabase;
  let dataSource: DataSource;
  const accounts: number[] = [];
  const links: number[] = [];

  const applied = async () =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM migrations')).map((row) => row.name);
  const undoRollups = async () => {
    while ((await applied()).includes(ROLLUPS)) await dataSource.undoLastMigration();
  };

  /** Clicks inserted into the `clicks` view, as an operator or a test writes them. */
  async function click(link: number, at: string, country: string | null, device: string | null) {
    await dataSource.query(
      `INSERT INTO clicks (link_id, created_at, country, device) VALUES ($1, $2, $3, $4)`,
      [link, at, country, device],
    );
  }

  async function expectSums() {
    for (const account of accounts) {
      const { stored, summed } = await workspaceRollups(dataSource, account);
      expect(stored).toEqual(summed);
    }
  }

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_account_rollups');
    dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
    await runMigrations(dataSource);
    await undoRollups();

    for (const name of ['Before workspace rollups', 'Another']) {
      const [{ id }] = await dataSource.query<{ id: number }[]>(
        'INSERT INTO accounts (name) VALUES ($1) RETURNING id',
        [name],
      );
      accounts.push(id);
    }
    const [{ id: domainId }] = await dataSource.query<{ id: number }[]>(
      `INSERT INTO domains (name) VALUES ('rollups.example') RETURNING id`,
    );
    for (const [account, alias] of [
      [accounts[0], 'one'],
      [accounts[0], 'two'],
      [accounts[0], 'three'],
      [accounts[1], 'four'],
    ] as const) {
      const [{ id }] = await dataSource.query<{ id: number }[]>(
        `INSERT INTO links (account_id, domain_id, alias, url) VALUES ($1, $2, $3, $4) RETURNING id`,
        [account, domainId, alias, `https://example.com/${alias}`],
      );
      links.push(id);
    }
    await click(links[0], '2026-10-03T10:15:00Z', 'GB', 'Desktop');
    await click(links[0], '2026-10-03T10:45:00Z', 'GB', 'Mobile');
    await click(links[1], '2026-10-03T10:05:00Z', 'GB', 'Desktop');
    await click(links[1], '2026-11-20T23:59:59Z', null, null);
    await click(links[2], '2026-11-21T00:00:00Z', 'FR', 'Tablet');
    await click(links[3], '2026-10-03T10:30:00Z', 'GB', 'Desktop');
    // Destinations as click batches count them: each link's own url (code 0), and one destination shared.
    await dataSource.query(
      `INSERT INTO click_days (link_id, dimension, day, value, clicks)
       SELECT link_id, 9, '2026-10-03', value, clicks
         FROM (VALUES ($1::int, 0, 2), ($2::int, 0, 1), ($2::int, click_value_id(9::smallint, 'https://example.com/x'), 3),
                      ($3::int, click_value_id(9::smallint, 'https://example.com/x'), 1)) AS t(link_id, value, clicks)`,
      links.slice(0, 3),
    );

    expect(await runMigrations(dataSource).then((ran) => ran.map((migration) => migration.name))).toContain(
      ROLLUPS,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await scratch?.drop();
  });

  it("fills each workspace's rollups with the sums of its links'", async () => {
    await expectSums();
    const { stored } = await workspaceRollups(dataSource, accounts[0]);
    expect(stored.length).toBeGreaterThan(10);
    const [gb] = await dataSource.query<{ clicks: number }[]>(
      `SELECT d.clicks::int FROM account_click_days d JOIN click_values v ON v.id = d.value
        WHERE d.account_id = $1 AND d.dimension = 2 AND d.day = '2026-10-03' AND v.value = 'GB'`,
      [accounts[0]],
    );
    expect(gb.clicks).toBe(3);
  });

  it('keeps them the sums through a click, a move to another workspace and a delete', async () => {
    await click(links[2], '2026-11-21T00:30:00Z', 'FR', 'Tablet');
    await expectSums();
    await dataSource.query('UPDATE links SET account_id = $2 WHERE id = $1', [links[1], accounts[1]]);
    const [counter] = await dataSource.query<{ account_id: number }[]>(
      'SELECT account_id FROM link_counters WHERE link_id = $1',
      [links[1]],
    );
    expect(counter.account_id).toBe(accounts[1]);
    await expectSums();
    await dataSource.query('DELETE FROM links WHERE id = ANY($1::int[])', [[links[0], links[3]]]);
    await expectSums();
    // Rows a delete left at zero are gone, not kept at 0.
    const [{ zero }] = await dataSource.query<{ zero: number }[]>(
      `SELECT (SELECT count(*) FROM account_click_hours WHERE clicks = 0)
            + (SELECT count(*) FROM account_click_days WHERE clicks = 0) AS zero`,
    );
    expect(Number(zero)).toBe(0);
  });

  it('reverts to the schema of before, whose clicks and deletes work as they did', async () => {
    await undoRollups();
    const [{ tables }] = await dataSource.query<{ tables: number }[]>(
      `SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_name LIKE 'account_click_%'`,
    );
    expect(tables).toBe(0);
    await click(links[2], '2026-11-22T00:00:00Z', 'FR', 'Tablet');
    const [{ clicks }] = await dataSource.query<{ clicks: number }[]>(
      'SELECT sum(clicks)::int AS clicks FROM click_hours WHERE link_id = $1',
      [links[2]],
    );
    expect(clicks).toBe(3);
    await dataSource.query('DELETE FROM links WHERE id = $1', [links[2]]);
    expect(await runMigrations(dataSource).then((ran) => ran.map((migration) => migration.name))).toContain(
      ROLLUPS,
    );
    await expectSums();
  });
});
