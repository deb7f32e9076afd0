import { ClickStore } from '../src/clicks/click-store.repository';
import { ClickWriter } from '../src/clicks/click-writer';
import { isPublicAddress, resolveHost, type AddressPolicy } from '../src/common/outbound-address';
import { IMPORT_ADDRESS_POLICY } from '../src/imports/import-sources';
import { STATS_DIMENSIONS } from '../src/stats/dto/stats-query.dto';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { clickFixtures, day, workspaceRollups } from './support/clicks';
import { FakeBitly } from './support/fake-bitly';
import { FakeShlink } from './support/fake-shlink';
import { sleep } from './support/sleep';
import { createLink, UA, unique } from './support/visitors';

/** Every name of the stats API: clicks over time, then each dimension. */
const NAMES = ['click', ...STATS_DIMENSIONS];

/** Periods of each kind of answer: hours (one day), days, and months back to the imported history. */
const PERIODS = () => [
  `from=${day()}&to=${day()}`,
  `from=${day(-10)}&to=${day()}`,
  `from=2025-01-01&to=${day()}`,
];

/** Loopback counts as public for this app alone, so that the fake sources may be reached. */
const LOOPBACK_AS_PUBLIC: AddressPolicy = {
  resolve: resolveHost,
  allowAddress: (address) => address === '127.0.0.1' || isPublicAddress(address),
};

/**
 * A whole workspace's stats (`GET /api/v1/stats` without a filter, by a caller that reaches every link) are read
 * from rollups of the workspace's own, and a whole space's (`space_id`, 0 for the links in none, or the spaces a
 * restricted key reaches) from its space's. They must answer what the sum over their links answers, for every name
 * and kind of period, whatever wrote the clicks (batches, claims, rows inserted into the `clicks` view, imports of
 * raw visits and of rollups) and whatever happened to the links since (deleted, moved to another space or
 * workspace, their space deleted, rebuilt); and the stored rows must equal the sums of the links' rows.
 */
describe('Stats of a whole workspace or space, from their own rollups', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let spaceA: number;
  /** The owner's links, each with the space it is in (null for none). */
  const links = new Map<number, number | null>();
  const closers: (() => Promise<void>)[] = [];
  const { call, json } = apiClient(() => t);
  const { insertClicks } = clickFixtures(() => t);

  /** Every value of a name in a period, as a map of value to count, all pages followed. */
  async function report(account: TestAccount, path: string, name: string, period: string) {
    const counts = new Map<string | null, number>();
    for (let page = 1; ; page += 1) {
      const response = await call(account, 'get', `${path}?name=${name}&${period}&per_page=100&page=${page}`);
      expect(`${path} ${name} ${period}: ${response.status}`).toBe(`${path} ${name} ${period}: 200`);
      for (const row of response.body.data as { value: string | null; count: number }[]) {
        counts.set(row.value, row.count);
      }
      if (name === 'click' || response.body.links.next === null) return counts;
    }
  }

  /** The workspace's answer and the sum of its links' answers, for every name and period. */
  async function expectSumOfLinks(account: TestAccount, linkIds: number[], query = '') {
    for (const period of PERIODS()) {
      for (const name of NAMES) {
        const summed = new Map<string | null, number>();
        for (const id of linkIds) {
          for (const [value, count] of await report(account, `/api/v1/stats/${id}`, name, period)) {
            summed.set(value, (summed.get(value) ?? 0) + count);
          }
        }
        const whole = await report(account, '/api/v1/stats', name, `${period}${query}`);
        expect([name, period, new Map([...whole].sort())]).toEqual([
          name,
          period,
          new Map([...summed].sort()),
        ]);
      }
    }
  }

  async function expectStoredSums(accountId: number) {
    await t.app.get(ClickWriter).settle();
    const { stored, summed } = await workspaceRollups(t.dataSource, accountId);
    expect(stored).toEqual(summed);
  }

  async function visit(alias: string, userAgent: string, referer?: string) {
    const request = t.http().get(`/${alias}`).set('User-Agent', userAgent);
    const response = await (referer === undefined ? request : request.set('Referer', referer));
    expect(response.status).toBe(302);
  }

  async function runImport(account: TestAccount, body: Record<string, unknown>) {
    const created = await json(account, 'post', '/api/v1/imports', body).expect(202);
    const id = (created.body as { data: { id: number } }).data.id;
    for (let tries = 0; tries < 300; tries += 1) {
      const shown = await call(account, 'get', `/api/v1/imports/${id}`).expect(200);
      const data = (shown.body as { data: { status: string } }).data;
      if (!['queued', 'running'].includes(data.status)) return data;
      await sleep(100);
    }
    throw new Error('the import did not end');
  }

  /** The owner's links in a space (null: in none), as the test keeps them. */
  function inSpace(space: number | null): number[] {
    return [...links].filter(([, kept]) => kept === space).map(([id]) => id);
  }

  /** Each space's stats, and those of the links in none, against the sums of their links'. */
  async function expectSpaces(spaces: number[]) {
    await expectSumOfLinks(owner, inSpace(null), '&space_id=0');
    for (const space of spaces) await expectSumOfLinks(owner, inSpace(space), `&space_id=${space}`);
  }

  async function makeSpace(name: string): Promise<number> {
    const space = await json(owner, 'post', '/api/v1/spaces', { name: unique(name) }).expect(201);
    return (space.body as { data: { id: number } }).data.id;
  }

  /** A key of the owner's restricted to these spaces, as an account to call with. */
  async function restrictedTo(spaceIds: number[]): Promise<TestAccount> {
    const key = await json(owner, 'post', '/api/v1/keys', {
      name: unique('Spaces'),
      scopes: ['stats.read', 'links.read'],
      space_ids: spaceIds,
    }).expect(201);
    const secret = (key.body as { data: { key: string } }).data.key;
    return { ...owner, apiKey: secret, auth: `Bearer ${secret}` };
  }

  async function linkIdsOf(account: TestAccount): Promise<number[]> {
    const rows = await t.dataSource.query<{ id: number }[]>(
      'SELECT id FROM links WHERE account_id = $1 ORDER BY id',
      [account.id],
    );
    return rows.map((row) => row.id);
  }

  beforeAll(async () => {
    t = await createTestApp(
      { RATE_LIMIT_PER_MINUTE: '0' },
      { override: (builder) => builder.overrideProvider(IMPORT_ADDRESS_POLICY).useValue(LOOPBACK_AS_PUBLIC) },
    );
    owner = await createAccount(t, 'Whole workspace');
    other = await createAccount(t, 'Another workspace');
    spaceA = await makeSpace('A');
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
  });

  it('equals the sum of its links after visits, claims and clicks of earlier days, for every name', async () => {
    const plain = await createLink(t, owner, { url: 'https://example.com/plain', space_id: spaceA });
    const second = await createLink(t, owner, { url: 'https://example.com/second' });
    const limited = await createLink(t, owner, { url: 'https://example.com/limited', clicks_limit: 3 });
    const rotating = await createLink(t, owner, {
      url: 'https://example.com/rotating',
      targets_type: 'rotations',
      targets: [{ value: 'https://example.com/plain' }, { value: 'https://example.com/turn' }],
      space_id: spaceA,
    });
    const apps = await createLink(t, owner, {
      url: 'https://example.com/apps',
      targets_type: 'devices',
      targets: [{ key: 'Mobile', value: 'https://example.com/mobile' }],
    });
    for (const [link, space] of [
      [plain, spaceA],
      [second, null],
      [limited, null],
      [rotating, spaceA],
      [apps, null],
    ] as const) {
      links.set(link.id, space);
    }
    for (const [alias, agent, referer] of [
      [plain.alias, UA.windowsChrome, 'https://news.example.org/a'],
      [plain.alias, UA.iPhoneSafari, undefined],
      [second.alias, UA.androidChrome, 'https://search.example/q'],
      [limited.alias, UA.macSafari, undefined],
      [limited.alias, UA.macSafari, undefined],
      [rotating.alias, UA.linuxFirefox, undefined],
      [rotating.alias, UA.windowsEdge, undefined],
      [rotating.alias, UA.iPadSafari, undefined],
      [apps.alias, UA.iPhoneSafari, undefined],
      [apps.alias, UA.windowsChrome, undefined],
    ] as const) {
      await visit(alias, agent, referer);
    }
    await insertClicks(plain.id, [
      { created_at: `${day(-3)}T10:00:00Z`, country: 'GB', city: 'London', device: 'Mobile', language: 'en' },
      { created_at: `${day(-3)}T10:30:00Z`, country: 'CA', city: 'London', browser: 'Chrome' },
    ]);
    await insertClicks(second.id, [
      {
        created_at: `${day(-2)}T23:59:59Z`,
        country: 'GB',
        referrer: 'news.example.org',
        operating_system: 'iOS',
      },
      { country: 'FR', city: 'Paris', continent: 'EU' },
    ]);
    const otherLink = await createLink(t, other, { url: 'https://example.com/elsewhere' });
    await visit(otherLink.alias, UA.windowsChrome);

    await expectSumOfLinks(owner, [...links.keys()]);
    // A link's own url and another's destination of the same text are one value, as the links' rollups answer it.
    const targets = await report(owner, '/api/v1/stats', 'target', `from=${day()}&to=${day()}`);
    expect([...targets.keys()].sort()).toEqual(
      expect.arrayContaining(['https://example.com/plain', 'https://example.com/mobile']),
    );
    expect(await report(other, '/api/v1/stats', 'click', `from=${day()}&to=${day()}`)).toEqual(
      await report(other, `/api/v1/stats/${otherLink.id}`, 'click', `from=${day()}&to=${day()}`),
    );
    await expectStoredSums(owner.id);
    await expectStoredSums(other.id);
  });

  it('leaves out a deleted link’s clicks, as its links do', async () => {
    const [gone] = [...links.keys()];
    await call(owner, 'delete', `/api/v1/links/${gone}`).expect(200);
    links.delete(gone);
    await expectSumOfLinks(owner, [...links.keys()]);
    await expectStoredSums(owner.id);
  });

  it('counts what an import brought, raw visits and rollups alike', async () => {
    const shlink = await FakeShlink.start({
      apiKey: 'shlink-key',
      shortUrls: [
        {
          shortCode: unique('visited'),
          longUrl: 'https://example.com/visited',
          dateCreated: '2025-01-10T10:00:00+00:00',
          visits: [
            { date: '2025-01-11T09:00:00+00:00', userAgent: UA.iPhoneSafari, countryCode: 'FR' },
            { date: `${day(-1)}T10:00:00+00:00`, userAgent: UA.androidChrome, countryCode: 'DE' },
          ],
        },
      ],
    });
    closers.push(() => shlink.close());
    const bitly = await FakeBitly.start({
      token: 'bitly-token',
      groups: [{ guid: 'Bg1', name: unique('Marketing') }],
      bitlinks: [
        {
          group: 'Bg1',
          id: `bit.ly/${unique('counted')}`,
          long_url: 'https://example.com/counted',
          created_at: '2025-03-01T00:00:00+0000',
          clicks: [
            { day: '2025-03-02', clicks: 3 },
            { day: day(-4), clicks: 2 },
          ],
          countries: [
            { value: 'US', clicks: 4 },
            { value: 'GB', clicks: 1 },
          ],
          referringDomains: [{ value: 'news.example.org', clicks: 5 }],
        },
      ],
    });
    closers.push(() => bitly.close());
    for (const body of [
      { source: 'shlink', url: shlink.url, api_key: 'shlink-key' },
      { source: 'bitly', url: bitly.url, access_token: 'bitly-token' },
    ]) {
      expect(await runImport(owner, body)).toMatchObject({ status: 'done' });
    }
    const all = await linkIdsOf(owner);
    expect(all.length).toBe(links.size + 2);
    // Bitly's group came as a space of its own, the other source's link in none.
    const made = await t.dataSource.query<{ id: number; space_id: number | null }[]>(
      'SELECT id, space_id FROM links WHERE id = ANY($1::int[]) ORDER BY space_id NULLS FIRST',
      [all.filter((id) => !links.has(id))],
    );
    expect(made.map((link) => link.space_id === null)).toEqual([true, false]);
    for (const link of made) links.set(link.id, link.space_id);
    await expectSumOfLinks(owner, all);
    await expectSpaces([made[1].space_id!]);
    await expectStoredSums(owner.id);
  }, 60_000);

  it('follows a link that moves to another workspace, and what it is visited for there', async () => {
    const moved = await createLink(t, owner, { url: 'https://example.com/moving' });
    await visit(moved.alias, UA.windowsChrome, 'https://news.example.org/b');
    await insertClicks(moved.id, [{ created_at: `${day(-5)}T08:00:00Z`, country: 'JP' }]);
    await t.app.get(ClickWriter).settle();
    // No API moves a link between workspaces: the column itself is held to it.
    await t.dataSource.query('UPDATE links SET account_id = $2 WHERE id = $1', [moved.id, other.id]);
    await visit(moved.alias, UA.iPhoneSafari);
    await expectSumOfLinks(owner, [...links.keys()]);
    await expectSumOfLinks(other, await linkIdsOf(other));
    expect((await report(other, '/api/v1/stats', 'click', `from=${day(-10)}&to=${day()}`)).get(day(-5))).toBe(
      1,
    );
    await expectStoredSums(owner.id);
    await expectStoredSums(other.id);
  });

  it('counts a space, the links in none, and only the spaces of a key restricted to some', async () => {
    expect(inSpace(spaceA).length).toBe(1);
    await expectSpaces([spaceA]);
    const restricted = await restrictedTo([spaceA]);
    await expectSumOfLinks(restricted, inSpace(spaceA));
    await expectSumOfLinks(restricted, inSpace(spaceA), `&space_id=${spaceA}`);
    // The links in none, or another space, are beyond its reach.
    await expectSumOfLinks(restricted, [], '&space_id=0');
    const whole = await report(owner, '/api/v1/stats', 'country', PERIODS()[2]);
    const reached = await report(restricted, '/api/v1/stats', 'country', PERIODS()[2]);
    expect([...reached.values()].reduce((sum, count) => sum + count, 0)).toBeLessThan(
      [...whole.values()].reduce((sum, count) => sum + count, 0),
    );
  });

  it('follows links moved between spaces, one or several at once, and a space deleted', async () => {
    const spaceB = await makeSpace('B');
    const [alone, ...several] = inSpace(null);
    expect(several.length).toBeGreaterThan(1);
    await json(owner, 'patch', `/api/v1/links/${alone}`, { space_id: spaceB }).expect(200);
    links.set(alone, spaceB);
    await json(owner, 'patch', '/api/v1/links/bulk', { ids: several, changes: { space_id: spaceA } }).expect(
      200,
    );
    for (const id of several) links.set(id, spaceA);
    const [shown] = await t.dataSource.query<{ alias: string }[]>('SELECT alias FROM links WHERE id = $1', [
      several[0],
    ]);
    await visit(shown.alias, UA.androidChrome, 'https://news.example.org/c');
    await expectSpaces([spaceA, spaceB]);
    // A key of both spaces counts them together.
    await expectSumOfLinks(await restrictedTo([spaceA, spaceB]), [...inSpace(spaceA), ...inSpace(spaceB)]);
    await expectStoredSums(owner.id);

    // A space deleted leaves its links in none.
    await call(owner, 'delete', `/api/v1/spaces/${spaceB}`).expect(200);
    links.set(alone, null);
    await expectSpaces([spaceA]);
    await expectStoredSums(owner.id);
  });

  it('is counted again from its links by a rebuild, wherever it went wrong', async () => {
    await t.app.get(ClickWriter).settle();
    await t.dataSource.query('UPDATE account_click_hours SET clicks = clicks + 7 WHERE account_id = $1', [
      owner.id,
    ]);
    await t.dataSource.query('DELETE FROM account_click_days WHERE account_id = $1 AND dimension = 2', [
      owner.id,
    ]);
    await t.dataSource.query('UPDATE space_click_hours SET clicks = clicks + 5 WHERE account_id = $1', [
      owner.id,
    ]);
    await t.dataSource.query('DELETE FROM space_click_days WHERE account_id = $1 AND dimension = 3', [
      owner.id,
    ]);
    // What a whole space answers is read from its own rows, wrong as they are now.
    const query = `&space_id=${spaceA}`;
    const total = async (name: string) =>
      [...(await report(owner, '/api/v1/stats', name, `${PERIODS()[2]}${query}`)).values()].reduce(
        (sum, count) => sum + count,
        0,
      );
    expect(await total('country')).toBeGreaterThan(0);
    expect(await total('click')).toBeGreaterThan(await total('country'));
    const [first] = [...links.keys()];
    await t.app.get(ClickStore).rebuild(first);
    await expectStoredSums(owner.id);
    await expectSumOfLinks(owner, [...links.keys()]);
    await expectSpaces([spaceA]);
  });
});
