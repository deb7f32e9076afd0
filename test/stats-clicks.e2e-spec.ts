import { parse } from 'csv-parse/sync';
import type { Response } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, ISO_DATE, listPath, META_FIELDS, metaLinks } from './support/api';
import { clickFixtures, day, exportedClicks, type ClickSeed } from './support/clicks';
import { invalid, NOT_FOUND } from './support/contract';
import { createLink, IP, UA, unique, type LinkData } from './support/visitors';

/** The fields of a listed click, in the order the API writes them: the export's columns, then the target. */
const CLICK_FIELDS = [
  'created_at',
  'referrer',
  'country',
  'city',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
  'target',
];

const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };

interface ListedClick {
  created_at: string;
  browser: string | null;
  target: string | null;
  [field: string]: string | null;
}

describe('GET /api/v1/stats/{link_id}/clicks', () => {
  let t: TestApp;
  let owner: TestAccount;
  const { call, json } = apiClient(() => t);
  const { insertClicks, madeDaysAgo } = clickFixtures(() => t);

  beforeAll(async () => {
    // TRUST_PROXY=true, so that a visit's X-Forwarded-For gives its country.
    t = await createTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_PER_MINUTE: '0' });
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const link = (account = owner, body: Record<string, unknown> = {}) =>
    createLink(t, account, { url: 'https://example.com/visited', ...body });

  function clicks(account: TestAccount | null, linkId: number | string, query = ''): Promise<Response> {
    return call(account, 'get', `/api/v1/stats/${linkId}/clicks${query}`);
  }

  /** Clicks one second apart from `start` on, the first the oldest, each with its browser named by its place. */
  function secondsApart(count: number, start: string): ClickSeed[] {
    return Array.from({ length: count }, (_, index) => ({
      created_at: new Date(Date.parse(start) + index * 1000).toISOString(),
      browser: `Browser ${index + 1}`,
    }));
  }

  /** The owner's workspace through a key of its own, made with these scopes (and spaces). */
  async function keyOf(body: { scopes: string[]; space_ids?: number[] }): Promise<TestAccount> {
    const created = await json(owner, 'post', '/api/v1/keys', { name: unique('key'), ...body });
    expect(created.status).toBe(201);
    const key = (created.body.data as { key: string }).key;
    return { ...owner, apiKey: key, auth: `Bearer ${key}` };
  }

  const browsers = (response: Response) =>
    (response.body.data as ListedClick[]).map((click) => click.browser);

  it('lists the visits newest first, each as the export writes it, with the URL it was sent to', async () => {
    const visited = await link();
    const visits = [
      { agent: UA.windowsChrome, ip: IP.us, referer: 'https://news.example.org/a', language: 'en-US' },
      { agent: UA.iPhoneSafari, ip: IP.gb, referer: 'https://search.example/q', language: 'de-DE' },
      { agent: UA.linuxFirefox, ip: IP.gb, referer: null, language: 'fr' },
    ];
    for (const visit of visits) {
      const request = t
        .http()
        .get(`/${visited.alias}`)
        .set('User-Agent', visit.agent)
        .set('X-Forwarded-For', visit.ip)
        .set('Accept-Language', visit.language);
      expect((await (visit.referer === null ? request : request.set('Referer', visit.referer))).status).toBe(
        302,
      );
    }

    const response = await clicks(owner, visited.id);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
    const listed = response.body.data as ListedClick[];
    for (const click of listed) {
      expect(Object.keys(click)).toEqual(CLICK_FIELDS);
      expect(click.created_at).toMatch(ISO_DATE);
      expect(click.target).toBe('https://example.com/visited');
    }
    expect(listed.map((click) => [click.browser, click.country, click.referrer])).toEqual([
      ['Firefox', 'GB', null],
      ['Safari', 'GB', 'search.example'],
      ['Chrome', 'US', 'news.example.org'],
    ]);
    // Every value as the export writes it, newest first.
    const exported = await exportedClicks(t, owner, visited.id);
    expect(listed.map(({ target: _target, ...click }) => click)).toEqual([...exported].reverse());
    expect(response.body.meta).toMatchObject({ current_page: 1, from: 1, to: 3, last_page: 1, total: 3 });
  });

  it('pages as every list does, newest first, or oldest first with sort=asc', async () => {
    const paged = await link();
    await insertClicks(paged.id, secondsApart(25, `${day(0)}T00:00:00Z`));
    const first = await clicks(owner, paged.id, '?per_page=10');
    const path = listPath(first);
    expect(browsers(first)).toEqual(Array.from({ length: 10 }, (_, index) => `Browser ${25 - index}`));
    expect(Object.keys(first.body.meta)).toEqual(META_FIELDS);
    expect(first.body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      links: metaLinks(path, 1, 3, 'per_page=10&'),
      path,
      per_page: 10,
      to: 10,
      total: 25,
    });
    expect(first.body.links).toEqual({
      first: `${path}?per_page=10&page=1`,
      last: `${path}?per_page=10&page=3`,
      prev: null,
      next: `${path}?per_page=10&page=2`,
    });

    const last = await clicks(owner, paged.id, '?per_page=10&page=3');
    expect(browsers(last)).toEqual(['Browser 5', 'Browser 4', 'Browser 3', 'Browser 2', 'Browser 1']);
    expect(last.body.meta).toMatchObject({ current_page: 3, from: 21, to: 25, total: 25 });
    expect(last.body.links.next).toBeNull();

    const oldest = await clicks(owner, paged.id, '?sort=asc&per_page=25');
    expect(browsers(oldest)).toEqual(Array.from({ length: 25 }, (_, index) => `Browser ${index + 1}`));

    // Past the last page: an empty page that still counts them.
    const past = await clicks(owner, paged.id, '?page=4');
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ current_page: 4, from: null, to: null, total: 25, last_page: 3 });
  });

  it('lists the days from and to, both included, by default from the day the link was made to today', async () => {
    const dated = await link();
    await madeDaysAgo(dated.id, 5);
    await insertClicks(dated.id, [
      { created_at: `${day(-9)}T12:00:00Z`, browser: 'Before the link' },
      { created_at: `${day(-5)}T00:00:00Z`, browser: 'Its first day' },
      { created_at: `${day(-3)}T23:59:59.999Z`, browser: 'Three days ago' },
      { created_at: `${day(-2)}T00:00:00Z`, browser: 'Two days ago' },
      { created_at: `${day(0)}T10:00:00Z`, browser: 'Today' },
    ]);
    const answer = async (query: string) => {
      const response = await clicks(owner, dated.id, query);
      expect(response.status).toBe(200);
      return [browsers(response), response.body.meta.total as number];
    };
    expect(await answer('')).toEqual([['Today', 'Two days ago', 'Three days ago', 'Its first day'], 4]);
    expect(await answer(`?from=${day(-3)}&to=${day(-3)}`)).toEqual([['Three days ago'], 1]);
    expect(await answer(`?from=${day(-10)}&to=${day(-2)}`)).toEqual([
      ['Two days ago', 'Three days ago', 'Its first day', 'Before the link'],
      4,
    ]);
    expect(await answer(`?to=${day(-4)}`)).toEqual([['Its first day'], 1]);
  });

  it('counts what it lists: the total agrees with the stats of the same days', async () => {
    const counted = await link();
    await insertClicks(counted.id, [
      ...secondsApart(3, `${day(-2)}T23:59:58Z`),
      ...secondsApart(2, `${day(-1)}T12:00:00Z`),
    ]);
    const query = `?from=${day(-2)}&to=${day(-1)}`;
    const listed = await clicks(owner, counted.id, query);
    const stats = await call(owner, 'get', `/api/v1/stats/${counted.id}${query}`);
    const statsTotal = (stats.body.data as { count: number }[]).reduce((sum, row) => sum + row.count, 0);
    expect([listed.body.meta.total, statsTotal]).toEqual([5, 5]);
  });

  it('counts the clicks themselves for a link an import brought rollups to, which have no clicks behind them', async () => {
    const imported = await link();
    await insertClicks(imported.id, secondsApart(2, `${day(-1)}T08:00:00Z`));
    // What an import from a source that keeps no visits writes: rollups, and the record of the link.
    await t.dataSource.query(
      `INSERT INTO click_days (link_id, dimension, day, value, clicks) SELECT $1, dimension, $2, 0, 40
         FROM generate_series(1, 8) AS dimension
       ON CONFLICT (link_id, dimension, day, value) DO UPDATE SET clicks = click_days.clicks + 40`,
      [imported.id, day(-1)],
    );
    await t.dataSource.query(
      `INSERT INTO imported_links (account_id, source_origin, source_id, link_id) VALUES ($1, $2, $3, $4)`,
      [owner.id, 'https://source.example', unique('source'), imported.id],
    );
    const response = await clicks(owner, imported.id, `?from=${day(-1)}`);
    expect([browsers(response), response.body.meta.total]).toEqual([['Browser 2', 'Browser 1'], 2]);
  });

  it(`pages up to 10,000 clicks deep, and refuses a deeper page with a 422 that says what to do`, async () => {
    const deep = await link();
    await insertClicks(deep.id, secondsApart(3, `${day(0)}T00:00:00Z`));
    for (const query of [
      '?page=1000',
      '?per_page=25&page=400',
      '?per_page=50&page=200',
      '?per_page=100&page=100',
    ]) {
      const response = await clicks(owner, deep.id, query);
      expect(`${query}: ${response.status} ${JSON.stringify(response.body.data)}`).toBe(`${query}: 200 []`);
      expect(response.body.meta.total).toBe(3);
    }
    for (const [query, deepest, perPage] of [
      ['?page=1001', 1000, 10],
      ['?per_page=25&page=401', 400, 25],
      ['?per_page=50&page=201', 200, 50],
      ['?per_page=100&page=101', 100, 100],
      ['?page=2147483647', 1000, 10],
    ] as const) {
      const response = await clicks(owner, deep.id, query);
      expect(`${query}: ${response.status} ${JSON.stringify(response.body)}`).toBe(
        `${query}: 422 ${JSON.stringify(
          invalid(
            'page',
            `The page field must not be greater than ${deepest} with per_page ${perPage}: narrow from and to, ` +
              'or export the clicks.',
          ),
        )}`,
      );
    }
  });

  it('refuses a bad page, per_page, sort, from or to with a 422 naming it, as the stats do', async () => {
    const checked = await link();
    for (const [query, body] of [
      ['per_page=7', invalid('per_page', 'The selected per page is invalid.')],
      ['per_page=1000', invalid('per_page', 'The selected per page is invalid.')],
      ['page=0', invalid('page', 'The page field must be at least 1.')],
      ['page=x', invalid('page', 'The page field must be an integer.')],
      ['sort=newest', invalid('sort', 'The selected sort is invalid.')],
      ['from=2026-02-30', invalid('from', 'The from field must be a valid date in the format Y-m-d.')],
      ['to=2026-13-01', invalid('to', 'The to field must be a valid date in the format Y-m-d.')],
      [
        'from=2026-01-02&to=2026-01-01',
        invalid('from', 'The from field must be a date before or equal to to.'),
      ],
      ['from=1900-01-01&to=2026-01-01', invalid('from', 'The range must not be longer than 36500 days.')],
      ['from=9999-12-30&to=9999-12-31', invalid('to', 'The to field must be a date before 9999-12-31.')],
    ] as const) {
      const response = await clicks(owner, checked.id, `?${query}`);
      expect(`${query}: ${response.status} ${JSON.stringify(response.body)}`).toBe(
        `${query}: 422 ${JSON.stringify(body)}`,
      );
    }
  });

  it("is a 404 for an unknown link and for another account's, and needs a key with stats.read", async () => {
    const mine = await link();
    const other = await createAccount(t);
    for (const response of [
      await clicks(other, mine.id),
      await clicks(owner, 2_147_483_647),
      await clicks(owner, 'abc'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual(NOT_FOUND);
    }
    expect((await clicks(null, mine.id)).status).toBe(401);

    const reader = await keyOf({ scopes: ['links.write', 'account.read'] });
    expect((await clicks(reader, mine.id)).body).toEqual(UNAUTHORIZED);
    expect((await clicks(await keyOf({ scopes: ['stats.read'] }), mine.id)).status).toBe(200);
  });

  it("shows a key restricted to spaces its spaces' links alone", async () => {
    const space = async () =>
      ((await json(owner, 'post', '/api/v1/spaces', { name: unique('Space') })).body.data as { id: number })
        .id;
    const [mine, theirs] = [await space(), await space()];
    const inMine: LinkData = await link(owner, { space_id: mine });
    const inTheirs: LinkData = await link(owner, { space_id: theirs });
    const nowhere: LinkData = await link();
    const restricted = await keyOf({ scopes: ['stats.read'], space_ids: [mine] });
    for (const outside of [inTheirs, nowhere]) {
      await insertClicks(outside.id, [{}]);
      expect((await clicks(restricted, outside.id)).body).toEqual(NOT_FOUND);
      expect((await clicks(owner, outside.id)).body.meta.total).toBe(1);
    }
    expect((await clicks(restricted, inMine.id)).status).toBe(200);
  });

  it('shows the owner the clicks of a link whose stats page is private', async () => {
    const hidden = await link(owner, { privacy: 1 });
    await insertClicks(hidden.id, secondsApart(1, `${day(0)}T00:00:01Z`));
    expect(browsers(await clicks(owner, hidden.id))).toEqual(['Browser 1']);
  });
});

describe('GET /api/v1/stats/{link_id}/export with from and to', () => {
  let t: TestApp;
  let owner: TestAccount;
  const { call, text } = apiClient(() => t);
  const { insertClicks } = clickFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const exportedBrowsers = async (linkId: number, query: string) => {
    const response = await text(owner, `/api/v1/stats/${linkId}/export${query}`);
    expect(response.status).toBe(200);
    return parse<{ browser: string }>(response.body as string, { columns: true }).map((row) => row.browser);
  };

  it('writes the clicks of those days, and every click without them, as before', async () => {
    const exported = await createLink(t, owner, { url: 'https://example.com/exported' });
    await insertClicks(exported.id, [
      { created_at: '2026-01-01T12:00:00Z', browser: 'New year' },
      { created_at: '2026-01-02T00:00:00Z', browser: 'Second' },
      { created_at: '2026-01-02T23:59:59.999Z', browser: 'Second, late' },
      { created_at: '2026-01-03T00:00:00Z', browser: 'Third' },
    ]);
    expect(await exportedBrowsers(exported.id, '')).toEqual(['New year', 'Second', 'Second, late', 'Third']);
    expect(await exportedBrowsers(exported.id, '?from=2026-01-02&to=2026-01-02')).toEqual([
      'Second',
      'Second, late',
    ]);
    expect(await exportedBrowsers(exported.id, '?from=2026-01-02')).toEqual([
      'Second',
      'Second, late',
      'Third',
    ]);
    expect(await exportedBrowsers(exported.id, '?to=2026-01-01')).toEqual(['New year']);
  });

  it('refuses from and to as the stats refuse them', async () => {
    const exported = await createLink(t, owner, { url: 'https://example.com/refused' });
    for (const [query, body] of [
      [
        'from=2026-01-02&to=2026-01-01',
        invalid('from', 'The from field must be a date before or equal to to.'),
      ],
      ['to=2026-13-01', invalid('to', 'The to field must be a valid date in the format Y-m-d.')],
    ] as const) {
      const response = await call(owner, 'get', `/api/v1/stats/${exported.id}/export?${query}`);
      expect(`${query}: ${response.status} ${JSON.stringify(response.body)}`).toBe(
        `${query}: 422 ${JSON.stringify(body)}`,
      );
    }
  });
});
