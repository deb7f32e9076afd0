import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { runMigrations } from '../src/database/migrate';
import { LinkLists1764100000000 } from '../src/database/migrations/1764100000000-link-lists';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { scratchDatabase } from './support/scratch-database';

const LINKS = '/api/v1/links';

interface CountRow {
  account_id: number;
  space_id: number;
  domain_id: number;
  disabled: boolean;
  links: number;
}

/** The counts `link_counts` should hold for some accounts, counted from the links themselves. */
async function countedFromLinks(dataSource: DataSource, accountIds: number[]): Promise<CountRow[]> {
  return dataSource.query(
    `SELECT account_id, COALESCE(space_id, 0) AS space_id, domain_id, disabled, count(*)::int AS links
       FROM links WHERE account_id = ANY ($1) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    [accountIds],
  );
}

async function maintained(dataSource: DataSource, accountIds: number[]): Promise<CountRow[]> {
  return dataSource.query(
    `SELECT account_id, space_id, domain_id, disabled, links FROM link_counts
      WHERE account_id = ANY ($1) ORDER BY 1, 2, 3, 4`,
    [accountIds],
  );
}

async function expectCountsExact(dataSource: DataSource, ...accounts: TestAccount[]): Promise<void> {
  const ids = accounts.map((account) => account.id);
  expect(await maintained(dataSource, ids)).toEqual(await countedFromLinks(dataSource, ids));
}

describe('Link lists', () => {
  let t: TestApp;
  const { call, form } = apiClient(() => t);
  let defaultDomainId: number;

  beforeAll(async () => {
    // The totals test sends more requests than a minute allows one key.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    const rows: { id: number }[] = await t.dataSource.query(
      'SELECT id FROM domains WHERE account_id IS NULL ORDER BY id LIMIT 1',
    );
    defaultDomainId = rows[0].id;
  });

  afterAll(async () => {
    await t.close();
  });

  async function create(account: TestAccount, body: Record<string, unknown>): Promise<number> {
    const response = await form(account, 'post', LINKS, { url: 'https://example.com/', ...body });
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  async function createSpace(account: TestAccount): Promise<number> {
    const response = await form(account, 'post', '/api/v1/spaces', {
      name: `Space ${randomBytes(4).toString('hex')}`,
    });
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  async function createDomain(account: TestAccount): Promise<number> {
    const response = await form(account, 'post', '/api/v1/domains', {
      name: `${randomBytes(5).toString('hex')}.example`,
    });
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  async function createPixel(account: TestAccount): Promise<number> {
    const response = await form(account, 'post', '/api/v1/pixels', {
      name: `Pixel ${randomBytes(4).toString('hex')}`,
      type: 'facebook',
      value: '123456789012345',
    });
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  async function update(account: TestAccount, id: number, body: Record<string, unknown>): Promise<void> {
    const response = await form(account, 'patch', `${LINKS}/${id}`, body);
    expect(response.status).toBe(200);
  }

  async function remove(account: TestAccount, path: string): Promise<void> {
    const response = await call(account, 'delete', path);
    expect(response.status).toBe(200);
  }

  describe('maintained counts', () => {
    it('follow creates, moves between spaces, disabling and deletes through the API', async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const [work, home] = [await createSpace(account), await createSpace(account)];
      const domain = await createDomain(account);
      await create(other, {});

      const plain = await create(account, {});
      const inWork = await create(account, { space_id: String(work), domain_id: String(domain) });
      const disabled = await create(account, { space_id: String(home), disabled: '1' });
      await expectCountsExact(t.dataSource, account, other);

      await update(account, plain, { space_id: String(work) });
      await update(account, inWork, { space_id: '' });
      await update(account, disabled, { disabled: '0', space_id: String(work) });
      await update(account, plain, { title: 'No key changed' });
      await expectCountsExact(t.dataSource, account, other);

      await remove(account, `${LINKS}/${inWork}`);
      await expectCountsExact(t.dataSource, account, other);
      // Counts that reach zero are removed rather than kept.
      expect(await maintained(t.dataSource, [account.id])).toEqual([
        { account_id: account.id, space_id: work, domain_id: defaultDomainId, disabled: false, links: 2 },
      ]);
    });

    it('move the links of a deleted space to no space', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account);
      for (let index = 0; index < 3; index += 1) await create(account, { space_id: String(space) });
      await create(account, { space_id: String(space), disabled: '1' });

      await remove(account, `/api/v1/spaces/${space}`);

      await expectCountsExact(t.dataSource, account);
      expect(await maintained(t.dataSource, [account.id])).toEqual([
        { account_id: account.id, space_id: 0, domain_id: defaultDomainId, disabled: false, links: 3 },
        { account_id: account.id, space_id: 0, domain_id: defaultDomainId, disabled: true, links: 1 },
      ]);
    });

    it('go with a deleted account', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account);
      const domain = await createDomain(account);
      await create(account, { space_id: String(space), domain_id: String(domain) });
      await create(account, { disabled: '1' });

      await t.dataSource.query('DELETE FROM accounts WHERE id = $1', [account.id]);

      expect(await maintained(t.dataSource, [account.id])).toEqual([]);
    });

    it('stay exact under concurrent creates, updates and deletes', async () => {
      const account = await createAccount(t);
      const [first, second] = [await createSpace(account), await createSpace(account)];

      const ids = await Promise.all(
        Array.from({ length: 24 }, (_, index) =>
          create(account, {
            space_id: String(index % 2 === 0 ? first : second),
            disabled: String(index % 3 === 0),
          }),
        ),
      );
      await expectCountsExact(t.dataSource, account);

      await Promise.all([
        ...ids.slice(0, 8).map((id) => remove(account, `${LINKS}/${id}`)),
        ...ids
          .slice(8, 16)
          .map((id, index) => update(account, id, { space_id: index % 2 === 0 ? String(second) : '' })),
        ...ids.slice(16).map((id) => update(account, id, { disabled: '1' })),
        ...Array.from({ length: 8 }, () => create(account, { space_id: String(first) })),
      ]);
      await expectCountsExact(t.dataSource, account);
    });

    it('follow statements that change many links at once', async () => {
      const account = await createAccount(t);
      const [first, second] = [await createSpace(account), await createSpace(account)];

      await t.dataSource.query(
        `INSERT INTO links (account_id, domain_id, space_id, alias, url, disabled)
         SELECT $1, $2, CASE n % 3 WHEN 0 THEN NULL WHEN 1 THEN $3::int ELSE $4::int END, $5 || n,
                'https://example.com/', n % 4 = 0
           FROM generate_series(1, 60) AS n`,
        [account.id, defaultDomainId, first, second, `bulk-${randomBytes(4).toString('hex')}-`],
      );
      await expectCountsExact(t.dataSource, account);

      await t.dataSource.query(
        'UPDATE links SET space_id = $2, disabled = NOT disabled WHERE account_id = $1 AND id % 2 = 0',
        [account.id, second],
      );
      await expectCountsExact(t.dataSource, account);

      await t.dataSource.query('DELETE FROM links WHERE account_id = $1 AND id % 3 = 0', [account.id]);
      await expectCountsExact(t.dataSource, account);
    });

    it("keep the counter's copy of the clicks limit equal to the link's", async () => {
      const account = await createAccount(t);
      const limited = await create(account, { clicks_limit: '5' });
      const unlimited = await create(account, {});
      const limitOf = async (id: number) => {
        const rows = await t.dataSource.query<{ clicks_limit: number | null }[]>(
          'SELECT clicks_limit FROM link_counters WHERE link_id = $1',
          [id],
        );
        return rows[0].clicks_limit;
      };

      expect(await limitOf(limited)).toBe(5);
      expect(await limitOf(unlimited)).toBeNull();

      await update(account, limited, { clicks_limit: '' });
      await update(account, unlimited, { clicks_limit: '7' });

      expect(await limitOf(limited)).toBeNull();
      expect(await limitOf(unlimited)).toBe(7);
    });
  });

  describe('totals and pages', () => {
    let account: TestAccount;
    let space: number;
    let domain: number;
    let pixel: number;

    /** 36 links: 9 states (12 active, 16 expired, 8 disabled) in each of 4 places; another account's alike. */
    beforeAll(async () => {
      account = await createAccount(t);
      const other = await createAccount(t);
      space = await createSpace(account);
      domain = await createDomain(account);
      pixel = await createPixel(account);
      const states: Record<string, Record<string, unknown>> = {
        active: {},
        inPeriod: { active_period_start_at: '2020-01-01 00:00', active_period_end_at: '2099-01-01 00:00' },
        ended: { active_period_start_at: '2020-01-01 00:00', active_period_end_at: '2020-06-01 00:00' },
        notYet: { active_period_start_at: '2098-01-01 00:00', active_period_end_at: '2099-01-01 00:00' },
        atLimit: { clicks_limit: '2' },
        underLimit: { clicks_limit: '9' },
        endedAtLimit: {
          clicks_limit: '1',
          active_period_start_at: '2020-01-01 00:00',
          active_period_end_at: '2020-06-01 00:00',
        },
        disabled: { disabled: '1' },
        disabledAtLimit: { disabled: '1', clicks_limit: '1' },
      };
      const placements: Record<string, unknown>[] = [
        {},
        { space_id: String(space) },
        { domain_id: String(domain), 'pixel_ids[]': String(pixel), title: 'Needle' },
        { space_id: String(space), domain_id: String(domain), title: 'needle too' },
      ];
      let index = 0;
      for (const fields of Object.values(states)) {
        for (const placement of placements) {
          index += 1;
          // Orders that differ from the ids': aliases and urls run backwards, clicks go round.
          const id = await create(account, {
            alias: `z${String(100 - index).padStart(3, '0')}-${randomBytes(3).toString('hex')}`,
            url: `https://example.com/${String(100 - index).padStart(3, '0')}`,
            ...placement,
            ...fields,
          });
          await t.dataSource.query('UPDATE link_counters SET clicks = $2 WHERE link_id = $1', [
            id,
            index % 7,
          ]);
        }
        await create(other, fields);
      }
      // The limited links: 3 clicks, at their limit or under it.
      await t.dataSource.query(
        'UPDATE link_counters SET clicks = 3 WHERE account_id = ANY ($1) AND clicks_limit > 0',
        [[account.id, other.id]],
      );
    });

    async function listed(query: Record<string, string>) {
      const response = await call(account, 'get', `${LINKS}?${new URLSearchParams(query).toString()}`);
      expect(response.status).toBe(200);
      const { data, meta } = response.body as { data: { id: number }[]; meta: { total: number } };
      return { ids: data.map((link) => link.id), total: meta.total };
    }

    it('count exactly what every combination of filters lists', async () => {
      const filters = {
        status: ['', '0', '1', '2', '3'],
        space_id: ['', String(space), '0'],
        domain_id: ['', String(domain)],
        pixel_id: ['', String(pixel)],
        search: ['', 'NEEDLE'],
      };
      const expectedTotals: Record<string, number> = { '': 36, '0': 36, '1': 12, '2': 16, '3': 8 };
      for (const status of filters.status) {
        for (const spaceId of filters.space_id) {
          for (const domainId of filters.domain_id) {
            for (const pixelId of filters.pixel_id) {
              for (const search of filters.search) {
                const query = { status, space_id: spaceId, domain_id: domainId, pixel_id: pixelId, search };
                const { ids, total } = await listed({ ...query, per_page: '100' });
                // Every filter's total is counted apart from its page: they must agree.
                expect({ query, total }).toEqual({ query, total: ids.length });
                if (spaceId === '' && domainId === '' && pixelId === '' && search === '') {
                  expect(total).toBe(expectedTotals[status]);
                }
              }
            }
          }
        }
      }
    });

    // Small pages walk the order's index; a page of all the matches reads and sorts them: the same order.
    it.each(['id', 'clicks', 'title', 'alias', 'url'])(
      'pages every filter sorted by %s alike',
      async (sortBy) => {
        const filters: Record<string, string>[] = [
          {},
          { status: '1' },
          { status: '2' },
          { status: '3' },
          { space_id: String(space) },
          { space_id: '0', status: '1' },
          { pixel_id: String(pixel) },
          { search: 'needle' },
          { search: 'z0', search_by: 'alias', status: '2' },
        ];
        for (const filter of filters) {
          for (const sort of ['desc', 'asc']) {
            const query = { ...filter, sort_by: sortBy, sort };
            const whole = await listed({ ...query, per_page: '100' });
            const paged: number[] = [];
            for (let page = 1; page <= Math.ceil(whole.total / 10); page += 1) {
              const { ids, total } = await listed({ ...query, per_page: '10', page: String(page) });
              expect({ query, page, total }).toEqual({ query, page, total: whole.total });
              paged.push(...ids);
            }
            expect({ query, ids: paged }).toEqual({ query, ids: whole.ids });
          }
        }
      },
    );
  });
});

describe('Link lists migration', () => {
  it('counts the links already there and copies their limits when applied again', async () => {
    const scratch = await scratchDatabase('shortlink_lists');
    const dataSource = await new DataSource(dataSourceOptions(scratch.url)).initialize();
    try {
      await runMigrations(dataSource);
      const [{ id: account }] = await dataSource.query<{ id: number }[]>(
        `INSERT INTO accounts (name) VALUES ('Before') RETURNING id`,
      );
      const [{ id: domain }] = await dataSource.query<{ id: number }[]>(
        `INSERT INTO domains (name) VALUES ('before.example') RETURNING id`,
      );
      await dataSource.query(
        `INSERT INTO links (account_id, domain_id, alias, url, disabled, clicks_limit)
         SELECT $1, $2, 'l' || n, 'https://example.com/', n % 2 = 0, NULLIF(n % 3, 0) FROM generate_series(1, 9) AS n`,
        [account, domain],
      );
      // Back to before this migration, with the links left in place, then forward again.
      const last = async () =>
        (
          await dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id DESC LIMIT 1')
        )[0].name;
      while ((await last()) !== new LinkLists1764100000000().name) await dataSource.undoLastMigration();
      await dataSource.undoLastMigration();
      await runMigrations(dataSource);

      expect(await maintained(dataSource, [account])).toEqual([
        { account_id: account, space_id: 0, domain_id: domain, disabled: false, links: 5 },
        { account_id: account, space_id: 0, domain_id: domain, disabled: true, links: 4 },
      ]);
      const limits: { differing: number }[] = await dataSource.query(
        `SELECT count(*)::int AS differing FROM links l JOIN link_counters c ON c.link_id = l.id
          WHERE c.clicks_limit IS DISTINCT FROM l.clicks_limit`,
      );
      expect(limits[0].differing).toBe(0);
    } finally {
      await dataSource.destroy();
      await scratch.drop();
    }
  });
});
