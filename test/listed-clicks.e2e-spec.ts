import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { ClickWritePath1764600000000 } from '../src/database/migrations/1764600000000-click-write-path';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { scratchDatabase } from './support/scratch-database';
import { createLink, UA } from './support/visitors';

/**
 * Visits write `link_counters.clicks` in place; lists sort and count by `listed_clicks`, a copy each list brings up
 * to date first. Whatever moved the clicks (visits, claims, SQL), a list shows and orders them as they are.
 */
describe('Listed clicks', () => {
  let t: TestApp;
  const { call } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', VISITOR_RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await t.close();
  });

  async function visit(alias: string, times: number): Promise<void> {
    for (let i = 0; i < times; i += 1) {
      const response = await t.http().get(`/${alias}`).set('User-Agent', UA.windowsChrome);
      expect(response.status).toBe(302);
    }
  }

  async function byClicks(account: TestAccount, query = ''): Promise<[number, number][]> {
    const response = await call(account, 'get', `/api/v1/links?sort_by=clicks&sort=desc${query}`);
    expect(response.status).toBe(200);
    return (response.body.data as { id: number; clicks: number }[]).map((link) => [link.id, link.clicks]);
  }

  async function behind(account: TestAccount): Promise<number> {
    const rows = await t.dataSource.query<{ behind: number }[]>(
      'SELECT count(*)::int AS behind FROM link_counters WHERE account_id = $1 AND listed_behind',
      [account.id],
    );
    return rows[0].behind;
  }

  it('sorts by the visits counted since the last list, and leaves no counter behind', async () => {
    const account = await createAccount(t);
    const first = await createLink(t, account, { url: 'https://example.com/first' });
    const second = await createLink(t, account, { url: 'https://example.com/second' });
    const third = await createLink(t, account, { url: 'https://example.com/third' });

    await visit(first.alias, 3);
    await visit(second.alias, 1);
    expect(await byClicks(account)).toEqual([
      [first.id, 3],
      [second.id, 1],
      [third.id, 0],
    ]);
    expect(await behind(account)).toBe(0);

    await visit(second.alias, 4);
    await visit(third.alias, 2);
    expect(await byClicks(account)).toEqual([
      [second.id, 5],
      [first.id, 3],
      [third.id, 2],
    ]);
    expect(await byClicks(account).then((rows) => rows.reverse())).toEqual([
      [third.id, 2],
      [first.id, 3],
      [second.id, 5],
    ]);
  });

  it('lists a link as expired once the visits reach its clicks limit', async () => {
    const account = await createAccount(t);
    const limited = await createLink(t, account, { url: 'https://example.com/limited', clicks_limit: 2 });
    const open = await createLink(t, account, { url: 'https://example.com/open' });
    await visit(open.alias, 3);
    await visit(limited.alias, 1);
    const expired = async () =>
      (await call(account, 'get', '/api/v1/links?status=2').expect(200)).body as {
        data: { id: number }[];
        meta: { total: number };
      };
    expect((await expired()).meta.total).toBe(0);

    await visit(limited.alias, 1);
    const after = await expired();
    expect(after.data.map((link) => link.id)).toEqual([limited.id]);
    expect(after.meta.total).toBe(1);
    const active = (await call(account, 'get', '/api/v1/links?status=1').expect(200)).body as {
      data: { id: number }[];
      meta: { total: number };
    };
    expect(active.data.map((link) => link.id)).toEqual([open.id]);
    expect(active.meta.total).toBe(1);
  });

  it('lists clicks that SQL wrote, outside the visits', async () => {
    const account = await createAccount(t);
    const first = await createLink(t, account, { url: 'https://example.com/a' });
    const second = await createLink(t, account, { url: 'https://example.com/b' });
    await visit(first.alias, 2);
    expect(await byClicks(account)).toEqual([
      [first.id, 2],
      [second.id, 0],
    ]);
    await t.dataSource.query('UPDATE link_counters SET clicks = 40 WHERE link_id = $1', [second.id]);
    expect(await behind(account)).toBe(1);
    expect(await byClicks(account)).toEqual([
      [second.id, 40],
      [first.id, 2],
    ]);
  });
});

describe('Click write path migration', () => {
  it('copies the clicks that counters hold when applied; raw clicks are found by their link', async () => {
    const scratch = await scratchDatabase('shortlink_listed');
    const dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
    try {
      await runMigrations(dataSource);
      const last = async () =>
        (
          await dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id DESC LIMIT 1')
        )[0].name;
      while ((await last()) !== new ClickWritePath1764600000000().name) await dataSource.undoLastMigration();
      await dataSource.undoLastMigration();

      const [{ id: account }] = await dataSource.query<{ id: number }[]>(
        `INSERT INTO accounts (name) VALUES ('Before') RETURNING id`,
      );
      const [{ id: domain }] = await dataSource.query<{ id: number }[]>(
        `INSERT INTO domains (name) VALUES ('before.example') RETURNING id`,
      );
      await dataSource.query(
        `INSERT INTO links (account_id, domain_id, alias, url)
         SELECT $1, $2, 'l' || n, 'https://example.com/' FROM generate_series(1, 5) AS n`,
        [account, domain],
      );
      await dataSource.query('UPDATE link_counters SET clicks = link_id * 10 WHERE account_id = $1', [
        account,
      ]);
      await runMigrations(dataSource);

      const differing = await dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM link_counters
          WHERE account_id = $1 AND (listed_clicks <> clicks OR listed_behind)`,
        [account],
      );
      expect(differing[0].n).toBe(0);
      const key = await dataSource.query<{ columns: string }[]>(
        `SELECT string_agg(a.attname, ',' ORDER BY k.ord) AS columns
           FROM pg_index i
           CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
          WHERE i.indrelid = 'click_events'::regclass`,
      );
      // Stats read no raw click; exports, rebuilds and the clicks list find a link's by its id and their time.
      expect(key[0].columns).toBe('link_id,created_at');
    } finally {
      await dataSource.destroy();
      await scratch.drop();
    }
  });
});
