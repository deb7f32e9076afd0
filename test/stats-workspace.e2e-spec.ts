/** Every scope a key restricted to spaces may hold that these tests use. */
const ALL_SCOPES = ['links.write', 'spaces.write', 'stats.read'];
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { clickFixtures, day } from './support/clicks';
import { UA, unique } from './support/visitors';

const STATS = '/api/v1/stats';

interface Row {
  value: string | null;
  count: number;
}

/**
 * A workspace's stats (contract §14): a link's names and shapes over every link of the workspace, or those its
 * filters keep (space, domain, tag, up to five links), a key restricted to spaces counting its spaces alone.
 */
describe('Stats of a workspace', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let news: string;
  const links: Record<'a' | 'b' | 'c' | 'archived', { id: number; url: string }> = {} as never;
  let spaceA: number;
  let spaceB: number;
  let domainId: number;
  const { call, json } = apiClient(() => t);
  const { insertClicks } = clickFixtures(() => t);

  async function create(account: TestAccount, path: string, body: Record<string, unknown>) {
    const response = await json(account, 'post', path, body);
    expect(`${path}: ${response.status}`).toBe(`${path}: 201`);
    return response.body.data as { id: number } & Record<string, unknown>;
  }

  async function rows(account: TestAccount, query: string): Promise<Row[]> {
    const response = await call(account, 'get', `${STATS}?${query}`);
    expect(`${query}: ${response.status}`).toBe(`${query}: 200`);
    return response.body.data as Row[];
  }

  const countries = async (account: TestAccount, query = ''): Promise<Record<string, number>> =>
    Object.fromEntries(
      (await rows(account, `name=country&${query}`)).map((row) => [row.value ?? '', row.count]),
    );

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    owner = await createAccount(t, 'Workspace stats');
    other = await createAccount(t, 'Someone else');
    news = unique('News');
    spaceA = (await create(owner, '/api/v1/spaces', { name: unique('A') })).id;
    spaceB = (await create(owner, '/api/v1/spaces', { name: unique('B') })).id;
    const made = async (name: keyof typeof links, body: Record<string, unknown>) => {
      const url = `https://example.com/${name}`;
      const data = await create(owner, '/api/v1/links', { url, ...body });
      links[name] = { id: data.id, url };
      return data;
    };
    const a = await made('a', { space_id: spaceA, tags: [news] });
    domainId = (a.domain as { id: number }).id;
    await made('b', { space_id: spaceB });
    await made('c', {});
    await made('archived', { space_id: spaceA, archived: 1, tags: [news] });
    await insertClicks(links.a.id, [{ country: 'US' }, { country: 'US' }, { country: 'GB' }]);
    await insertClicks(links.b.id, [{ country: 'FR' }, { country: 'US' }]);
    await insertClicks(links.c.id, [{ country: 'DE' }]);
    await insertClicks(links.archived.id, [{ country: 'JP' }]);
    const elsewhere = await create(other, '/api/v1/links', { url: 'https://example.com/elsewhere' });
    await insertClicks(elsewhere.id, [{ country: 'US' }, { country: 'CN' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts every link of the workspace, archived ones too, and none of another's", async () => {
    expect(await countries(owner)).toEqual({
      'US:United States': 3,
      'GB:United Kingdom': 1,
      'FR:France': 1,
      'DE:Germany': 1,
      'JP:Japan': 1,
    });
    // From the day the workspace was made (today): per hour, as a link's first day is.
    const hours = await rows(owner, 'name=click');
    expect(hours.map((row) => row.value).every((value) => value?.startsWith(`${day()} `))).toBe(true);
    expect(hours.reduce((sum, row) => sum + row.count, 0)).toBe(7);
    expect(await rows(owner, `name=click&from=${day(-3)}`)).toEqual([{ value: day(), count: 7 }]);
    expect(await countries(other)).toEqual({ 'US:United States': 1, 'CN:China': 1 });
  });

  it('answers a dimension in the list envelope and clicks over time whole, as a link’s stats are', async () => {
    const paged = await call(owner, 'get', `${STATS}?name=country&per_page=10&page=1`);
    expect(paged.body).toMatchObject({
      links: { next: null, prev: null },
      meta: { current_page: 1, per_page: 10, total: 5 },
      status: 200,
    });
    expect((paged.body.data as Row[])[0]).toEqual({ value: 'US:United States', count: 3 });
    const overTime = await call(owner, 'get', `${STATS}?name=click`);
    expect(Object.keys(overTime.body).sort()).toEqual(['data', 'status']);
    const searched = await rows(owner, 'name=country&search=ger');
    expect(searched).toEqual([{ value: 'DE:Germany', count: 1 }]);
  });

  it.each([
    ['a space', () => `space_id=${spaceA}`, { 'US:United States': 2, 'GB:United Kingdom': 1, 'JP:Japan': 1 }],
    ['links in no space', () => 'space_id=0', { 'DE:Germany': 1 }],
    [
      'a tag, regardless of case',
      () => `tag=${news.toUpperCase()}`,
      { 'US:United States': 2, 'GB:United Kingdom': 1, 'JP:Japan': 1 },
    ],
    [
      'a tag in bracket notation',
      () => `tag[]=${news}&tag[]=nobody-has-it`,
      { 'US:United States': 2, 'GB:United Kingdom': 1, 'JP:Japan': 1 },
    ],
    [
      'links compared',
      () => `link_ids[]=${links.b.id}&link_ids[]=${links.c.id}`,
      { 'US:United States': 1, 'FR:France': 1, 'DE:Germany': 1 },
    ],
    ['a space and a link of another', () => `space_id=${spaceB}&link_ids[]=${links.a.id}`, {}],
    [
      'the domain',
      () => `domain_id=${domainId}&space_id=${spaceB}`,
      { 'US:United States': 1, 'FR:France': 1 },
    ],
  ])('narrows to %s', async (_name, query, expected) => {
    expect(await countries(owner, query())).toEqual(expected);
  });

  it("matches nothing for ids that are not the caller's, as a list's filters do", async () => {
    const theirs = (await call(other, 'get', '/api/v1/links')).body.data as { id: number }[];
    expect(await countries(owner, `link_ids[]=${theirs[0].id}`)).toEqual({});
    expect(await countries(owner, 'space_id=999999999')).toEqual({});
    expect(await countries(owner, 'domain_id=999999999')).toEqual({});
  });

  it("lists under name=target where each click went, each link's own url by itself", async () => {
    const account = await createAccount(t, 'Targets');
    const made = async (url: string, body: Record<string, unknown> = {}) =>
      (await create(account, '/api/v1/links', { url, ...body })) as { id: number; alias: string };
    const first = await made('https://example.com/first');
    const second = await made('https://example.com/second', {
      targets_type: 'rotations',
      targets: [{ value: 'https://example.com/first' }, { value: 'https://example.com/turn' }],
    });
    const visit = (alias: string) => t.http().get(`/${alias}`).set('User-Agent', UA.windowsChrome);
    for (const alias of [first.alias, first.alias, second.alias, second.alias, second.alias]) {
      expect((await visit(alias)).status).toBe(302);
    }
    // The second link's turns: first, turn, first; its destination `first` is the first link's own url, as text.
    expect(await rows(account, 'name=target')).toEqual([
      { value: 'https://example.com/first', count: 4 },
      { value: 'https://example.com/turn', count: 1 },
    ]);
    expect(await rows(account, `name=target&link_ids[]=${first.id}`)).toEqual([
      { value: 'https://example.com/first', count: 2 },
    ]);
  });

  it('counts only the spaces of a key restricted to some', async () => {
    const key = await create(owner, '/api/v1/keys', {
      name: 'Space A',
      scopes: ALL_SCOPES,
      space_ids: [spaceA],
    });
    const restricted = { ...owner, apiKey: key.key as string, auth: `Bearer ${key.key as string}` };
    expect(await countries(restricted)).toEqual({
      'US:United States': 2,
      'GB:United Kingdom': 1,
      'JP:Japan': 1,
    });
    // A filter cannot reach past the spaces: it narrows within them.
    expect(await countries(restricted, `link_ids[]=${links.b.id}`)).toEqual({});
    expect(await countries(restricted, `space_id=${spaceB}`)).toEqual({});
  });

  it('needs stats.read', async () => {
    const key = await create(owner, '/api/v1/keys', { name: 'Links only', scopes: ['links.read'] });
    const response = await t
      .http()
      .get(STATS)
      .set('Authorization', `Bearer ${key.key as string}`);
    expect(response.status).toBe(403);
    expect((await t.http().get(STATS)).status).toBe(401);
  });

  it.each([
    ['link_ids', 'link_ids[]=1&link_ids[]=2&link_ids[]=3&link_ids[]=4&link_ids[]=5&link_ids[]=6'],
    ['space_id', 'space_id=-1'],
    ['domain_id', 'domain_id=0'],
    ['name', 'name=everything'],
    ['from', `from=${day(1)}&to=${day()}`],
    ['tag', `tag=${'x'.repeat(51)}`],
  ])('refuses a bad %s, naming it', async (field, query) => {
    const response = await call(owner, 'get', `${STATS}?${query}`);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message as object)).toEqual([field]);
  });
});
