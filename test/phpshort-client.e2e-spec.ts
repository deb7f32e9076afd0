import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { PhpShortClient, type Answer, type StatsRow } from './support/phpshort-client';
import { IP, UA, unique } from './support/visitors';
import { DOMAIN_FIELDS, VISIT_FIELD_NAMES } from './support/links';

/**
 * A phpShort client, written from phpShort's developer pages, pointed at this service by its base URL: every
 * endpoint answers in phpShort's shapes, stats included after real visits. The service listens as a server does
 * (TRUST_PROXY=loopback, so that the visits' X-Forwarded-For gives their country); no city database is installed.
 */

/** phpShort's dates: ISO 8601 in UTC with microseconds. */
const DATE: unknown = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
const URL_OF = (path: string): unknown => expect.stringMatching(new RegExp(`^http://[^/]+${path}$`));

const SPACE_FIELDS = ['id', 'name', 'color', 'links_count', 'created_at', 'updated_at'];
const PIXEL_FIELDS = ['id', 'name', 'type', 'value', 'created_at', 'updated_at'];
const LINK_FIELDS = [
  'id',
  'alias',
  'url',
  'short_url',
  'title',
  'targets_type',
  'targets',
  'last_rotation',
  'sensitive_content',
  'privacy',
  'password',
  'redirect_password',
  'active_period_start_at',
  'active_period_end_at',
  'clicks_limit',
  'expiration_url',
  'clicks',
  'disabled',
  'space',
  'domain',
  'pixels',
  'expires_at',
  'created_at',
  'updated_at',
  'tags',
  ...VISIT_FIELD_NAMES,
  'archived',
  'health',
];
const ACCOUNT_FIELDS = [
  'id',
  'name',
  'email',
  'avatar_url',
  'locale',
  'timezone',
  'plan',
  'default_domain',
  'default_space',
  'default_stats',
  'created_at',
];

/** A `show`, `store` or `update` answer: `{"data": {...}, "status": 200}` with exactly these fields. */
function expectData(answer: Answer, status: number, fields: string[]): Record<string, unknown> {
  expect({ status: answer.status, keys: Object.keys(answer.body) }).toEqual({
    status,
    keys: ['data', 'status'],
  });
  expect(answer.body.status).toBe(200);
  expect(Object.keys(answer.body.data)).toEqual(fields);
  return answer.body.data as Record<string, unknown>;
}

/** A list answer: Laravel's paginator, `meta.links` included. */
function expectList(answer: Answer, path: string): unknown[] {
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.body)).toEqual(['data', 'links', 'meta', 'status']);
  expect(Object.keys(answer.body.links)).toEqual(['first', 'last', 'prev', 'next']);
  // Null on an empty page.
  const bound = (answer.body.data as unknown[]).length === 0 ? null : expect.any(Number);
  expect(answer.body.meta).toEqual({
    current_page: expect.any(Number),
    from: bound,
    last_page: expect.any(Number),
    // fetch parses JSON outside the test's realm: its arrays are not this realm's Array.
    links: expect.anything(),
    path: URL_OF(path),
    per_page: expect.any(Number),
    to: bound,
    total: expect.any(Number),
  });
  expect(Array.isArray(answer.body.meta.links)).toBe(true);
  for (const link of answer.body.meta.links as { url: unknown; label: unknown; active: unknown }[]) {
    expect(Object.keys(link)).toEqual(['url', 'label', 'active']);
    expect([
      link.url === null || typeof link.url === 'string',
      typeof link.label,
      typeof link.active,
    ]).toEqual([true, 'string', 'boolean']);
  }
  expect(answer.body.status).toBe(200);
  return answer.body.data as unknown[];
}

function expectDeleted(answer: Answer, id: number, object: string): void {
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ id, object, deleted: true, status: 200 });
}

/** Stats rows: `{"value", "count"}` each. */
function expectRows(rows: StatsRow[]): StatsRow[] {
  for (const row of rows) expect(Object.keys(row)).toEqual(['value', 'count']);
  return rows;
}

/** Clicks over time: one unpaginated `{"data": [{"value", "count"}], "status": 200}`. */
function expectClicks(answer: Answer): StatsRow[] {
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.body)).toEqual(['data', 'status']);
  return expectRows(answer.body.data as StatsRow[]);
}

/** A dimension: every page in the list envelope, read to the last; their rows, in order. */
function expectStatsPages(answers: { pages: Answer[]; rows: StatsRow[] }, linkId: number): StatsRow[] {
  answers.pages.forEach((page, index) => {
    expectList(page, `/api/v1/stats/${linkId}`);
    expect(page.body.meta).toMatchObject({ current_page: index + 1, last_page: answers.pages.length });
  });
  return expectRows(answers.rows);
}

describe('a phpShort client, unchanged but for its base URL', () => {
  let t: TestApp;
  let base: string;
  let account: TestAccount;
  let client: PhpShortClient;
  const today = new Date().toISOString().slice(0, 10);

  /** What a browser sends when it follows a short link: not the API client's doing. */
  function visit(path: string, visitor: { ua: string; ip: string; language: string; referer?: string }) {
    return fetch(`${base}${path}`, {
      redirect: 'manual',
      headers: {
        'User-Agent': visitor.ua,
        'X-Forwarded-For': visitor.ip,
        'Accept-Language': visitor.language,
        ...(visitor.referer === undefined ? {} : { Referer: visitor.referer }),
      },
    });
  }

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback' });
    await t.app.listen(0, '127.0.0.1');
    const server = t.app.getHttpServer() as Server;
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    account = await createAccount(t);
    client = new PhpShortClient(base, account.apiKey);
  });

  afterAll(async () => {
    await t?.close();
  });

  const state: {
    space?: Record<string, unknown>;
    domain?: Record<string, unknown>;
    pixels: Record<string, Record<string, unknown>>;
    targeted?: Record<string, unknown>;
    rotating?: Record<string, unknown>;
  } = { pixels: {} };

  it('account: phpShort’s fields', async () => {
    const data = expectData(await client.account(), 200, ACCOUNT_FIELDS);
    expect(data).toEqual({
      id: account.id,
      name: account.name,
      email: null,
      avatar_url: null,
      locale: 'en',
      timezone: 'UTC',
      plan: null,
      default_domain: expect.any(Number),
      default_space: null,
      default_stats: 0,
      created_at: DATE,
    });
  });

  it('spaces: store, list, show, update', async () => {
    const stored = await client.spaces.store({ name: 'Campaigns', color: 3 });
    const space = expectData(stored, 201, SPACE_FIELDS);
    expect(space).toEqual({
      id: expect.any(Number),
      name: 'Campaigns',
      color: 3,
      links_count: 0,
      created_at: DATE,
      updated_at: DATE,
    });
    const listed = expectList(
      await client.spaces.list({
        search: 'camp',
        search_by: 'name',
        sort_by: 'name',
        sort: 'asc',
        per_page: 25,
      }),
      '/api/v1/spaces',
    );
    expect(listed).toEqual([space]);
    expect(expectData(await client.spaces.show(space.id as number), 200, SPACE_FIELDS)).toEqual(space);
    const updated = expectData(
      await client.spaces.update(space.id as number, { name: 'Campaigns 2026' }),
      200,
      SPACE_FIELDS,
    );
    expect(updated).toMatchObject({ id: space.id, name: 'Campaigns 2026', color: 3 });
    state.space = updated;
  });

  it('domains: store (a URL as phpShort takes it), list, show, update', async () => {
    const label = unique('go');
    const stored = await client.domains.store({
      name: `https://${label.toUpperCase()}.Example/`,
      index_page: 'https://example.com/',
    });
    const domain = expectData(stored, 201, DOMAIN_FIELDS);
    expect(domain).toEqual({
      id: expect.any(Number),
      name: `${label}.example`,
      url: `http://${label}.example`,
      index_page: 'https://example.com/',
      not_found_page: null,
      created_at: DATE,
      updated_at: DATE,
      apple_app_site_association: null,
      assetlinks: null,
    });
    const listed = expectList(
      await client.domains.list({ search: label, search_by: 'name' }),
      '/api/v1/domains',
    );
    expect(listed).toEqual([domain]);
    expect(expectData(await client.domains.show(domain.id as number), 200, DOMAIN_FIELDS)).toEqual(domain);
    const updated = expectData(
      await client.domains.update(domain.id as number, { not_found_page: 'https://example.com/404' }),
      200,
      DOMAIN_FIELDS,
    );
    expect(updated).toMatchObject({ name: `${label}.example`, not_found_page: 'https://example.com/404' });
    state.domain = updated;
  });

  it('pixels: each type’s value as phpShort’s pages show it; store, list by type, show, update', async () => {
    const values: [string, string][] = [
      ['facebook', '123456789012345'],
      ['google-ads', '123456789'],
      ['adroll', 'ABCDEFGHIJKLMNOPQRSTUV-WXYZ0123456789ABCDEF'],
      ['google-analytics', 'G-ABC123DEF4'],
    ];
    for (const [type, value] of values) {
      const pixel = expectData(
        await client.pixels.store({ name: `My ${type}`, type, value }),
        201,
        PIXEL_FIELDS,
      );
      expect(pixel).toEqual({
        id: expect.any(Number),
        name: `My ${type}`,
        type,
        value,
        created_at: DATE,
        updated_at: DATE,
      });
      state.pixels[type] = pixel;
    }
    const adroll = expectList(await client.pixels.list({ type: 'adroll' }), '/api/v1/pixels');
    expect(adroll).toEqual([state.pixels.adroll]);
    const shown = await client.pixels.show(state.pixels.facebook.id as number);
    expect(expectData(shown, 200, PIXEL_FIELDS)).toEqual(state.pixels.facebook);
    const updated = await client.pixels.update(state.pixels['google-ads'].id as number, {
      value: '987654321',
    });
    expect(expectData(updated, 200, PIXEL_FIELDS)).toMatchObject({ type: 'google-ads', value: '987654321' });
  });

  it('links: store with bracket-encoded targets and pixels, list, show, update', async () => {
    const alias = unique('shop');
    const stored = await client.links.store({
      url: 'https://example.com/shop',
      alias,
      space_id: state.space!.id as number,
      pixel_ids: [state.pixels.facebook.id as number, state.pixels.adroll.id as number],
      targets_type: 'countries',
      targets: [
        { key: 'GB', value: 'https://example.com/uk' },
        { key: 'US', value: 'https://example.com/us' },
      ],
    });
    const link = expectData(stored, 201, LINK_FIELDS);
    expect(link).toMatchObject({
      alias,
      url: 'https://example.com/shop',
      short_url: `http://localhost:3000/${alias}`,
      targets_type: 'countries',
      targets: [
        { key: 'GB', value: 'https://example.com/uk' },
        { key: 'US', value: 'https://example.com/us' },
      ],
      space: { ...state.space, links_count: 1, updated_at: DATE },
      domain: { id: expect.any(Number), name: 'localhost:3000', url: 'http://localhost:3000' },
      pixels: [state.pixels.facebook, state.pixels.adroll],
      clicks: 0,
      privacy: 0,
    });
    state.targeted = link;

    const rotating = await client.links.store({
      url: 'https://example.com/a',
      alias: unique('round'),
      domain_id: state.domain!.id as number,
      targets_type: 'rotations',
      targets: [{ value: 'https://example.com/1' }, { value: 'https://example.com/2' }],
    });
    state.rotating = expectData(rotating, 201, LINK_FIELDS);
    // Rotation targets as phpShort sends them: no key; and their weight (contract §13), 1 by default.
    expect(state.rotating.targets).toEqual([
      { value: 'https://example.com/1', weight: 1 },
      { value: 'https://example.com/2', weight: 1 },
    ]);
    expect(state.rotating.short_url).toBe(`${state.domain!.url as string}/${state.rotating.alias as string}`);

    const listed = expectList(
      await client.links.list({
        search: alias,
        search_by: 'alias',
        status: 1,
        sort_by: 'clicks',
        sort: 'desc',
      }),
      '/api/v1/links',
    );
    expect(listed).toEqual([link]);
    expect(expectData(await client.links.show(link.id as number), 200, LINK_FIELDS)).toEqual(link);
    const updated = await client.links.update(link.id as number, {
      title: 'The shop',
      targets_type: 'countries',
      targets: [{ key: 'GB', value: 'https://example.com/gb' }],
    });
    expect(expectData(updated, 200, LINK_FIELDS)).toMatchObject({
      title: 'The shop',
      targets: [{ key: 'GB', value: 'https://example.com/gb' }],
    });
  });

  it('stats: after real visits, each name as phpShort answers it', async () => {
    const path = `/${state.targeted!.alias as string}`;
    const visitors = [
      { ua: UA.iPhoneSafari, ip: IP.gb, language: 'en-GB', referer: 'https://news.example.org/a' },
      { ua: UA.androidChrome, ip: IP.gb, language: 'en-GB,en;q=0.9', referer: 'https://news.example.org/b' },
      { ua: UA.windowsEdge, ip: IP.us, language: 'fr-FR' },
    ];
    for (const visitor of visitors) expect((await visit(path, visitor)).status).toBe(200);
    // A crawler is not counted.
    expect((await visit(path, { ua: UA.googlebot, ip: IP.us, language: 'en' })).status).toBe(302);

    const id = state.targeted!.id as number;
    const range = { from: today, to: today };
    const clicks = expectClicks(await client.stats(id, { name: 'click', ...range }));
    expect(clicks).toEqual([{ value: expect.stringMatching(new RegExp(`^${today} \\d\\d$`)), count: 3 }]);
    expect(expectClicks(await client.stats(id, { name: 'click', ...range, per_page: 25, page: 2 }))).toEqual(
      clicks,
    );
    const expected: Record<string, StatsRow[]> = {
      referrer: [
        { value: 'news.example.org', count: 2 },
        { value: null, count: 1 },
      ],
      country: [
        { value: 'GB:United Kingdom', count: 2 },
        { value: 'US:United States', count: 1 },
      ],
      // No city database is installed here: no city is known.
      city: [],
      browser: [
        { value: 'Chrome', count: 1 },
        { value: 'Edge', count: 1 },
        { value: 'Safari', count: 1 },
      ],
      operating_system: [
        { value: 'Android', count: 1 },
        { value: 'iOS', count: 1 },
        { value: 'Windows', count: 1 },
      ],
      device: [
        { value: 'mobile', count: 2 },
        { value: 'desktop', count: 1 },
      ],
      language: [
        { value: 'en', count: 2 },
        { value: 'fr', count: 1 },
      ],
    };
    for (const [name, rows] of Object.entries(expected)) {
      const read = expectStatsPages(await client.allStats(id, { name, ...range }), id);
      expect({ name, rows: read }).toEqual({ name, rows });
    }
    const searched = await client.allStats(id, {
      name: 'country',
      ...range,
      search: 'united k',
      search_by: 'value',
    });
    expect(expectStatsPages(searched, id)).toEqual([{ value: 'GB:United Kingdom', count: 2 }]);
    const sorted = await client.allStats(id, { name: 'device', ...range, sort_by: 'value', sort: 'asc' });
    expect(expectStatsPages(sorted, id).map((row) => row.value)).toEqual(['desktop', 'mobile']);
    expect(expectData(await client.links.show(id), 200, LINK_FIELDS).clicks).toBe(3);
  });

  it('stats: a dimension read page by page, following links.next with the query kept', async () => {
    const link = expectData(
      await client.links.store({ url: 'https://example.com/many', alias: unique('many') }),
      201,
      LINK_FIELDS,
    );
    const sites = Array.from({ length: 23 }, (_, index) => `site${String(index).padStart(2, '0')}.example`);
    for (const site of sites) {
      const visitor = { ua: UA.iPhoneSafari, ip: IP.gb, language: 'en', referer: `https://${site}/` };
      expect((await visit(`/${link.alias as string}`, visitor)).status).toBe(302);
    }
    const id = link.id as number;
    const range = { from: today, to: today };
    const byValue = { name: 'referrer', ...range, sort_by: 'value', sort: 'asc' };
    const paged = await client.allStats(id, byValue);
    expect(paged.pages).toHaveLength(3);
    expect(expectStatsPages(paged, id)).toEqual(sites.map((value) => ({ value, count: 1 })));
    expect(paged.pages.map((page) => (page.body.data as unknown[]).length)).toEqual([10, 10, 3]);
    expect(paged.pages[2].body.meta).toMatchObject({ from: 21, to: 23, per_page: 10, total: 23 });
    const wide = await client.allStats(id, { ...byValue, per_page: 100 });
    expect(wide.pages).toHaveLength(1);
    expect(expectStatsPages(wide, id)).toEqual(paged.rows);
    // The search and the order hold on every page.
    const searched = await client.allStats(id, {
      ...byValue,
      search: 'SITE1',
      search_by: 'value',
      sort: 'desc',
    });
    expect(expectStatsPages(searched, id).map((row) => row.value)).toEqual(sites.slice(10, 20).reverse());
    expect(searched.pages).toHaveLength(1);
    const second = await client.allStats(id, { ...byValue, search: 'site', per_page: 10, page: 2 });
    expect(second.pages[0].body.data).toEqual(paged.pages[1].body.data);
  });

  it('errors: phpShort’s bodies for a bad key, an unknown id and invalid input', async () => {
    const stranger = new PhpShortClient(base, 'not-a-key');
    expect(await stranger.account()).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.', status: 401 },
    });
    expect(await client.links.show(2_147_483_647)).toEqual({
      status: 404,
      body: { message: 'Resource not found.', status: 404 },
    });
    const invalid = await client.links.store({
      url: 'https://example.com/',
      targets_type: 'countries',
      targets: [{ key: 'XX', value: 'https://example.com/x' }],
    });
    expect(invalid).toEqual({
      status: 422,
      body: { message: { 'targets.0.key': ['The selected key is invalid for countries.'] }, status: 422 },
    });
  });

  it('deletes: link, pixel, domain, space', async () => {
    expectDeleted(
      await client.links.delete(state.targeted!.id as number),
      state.targeted!.id as number,
      'link',
    );
    expectDeleted(
      await client.links.delete(state.rotating!.id as number),
      state.rotating!.id as number,
      'link',
    );
    const adroll = state.pixels.adroll.id as number;
    expectDeleted(await client.pixels.delete(adroll), adroll, 'pixel');
    expectDeleted(
      await client.domains.delete(state.domain!.id as number),
      state.domain!.id as number,
      'domain',
    );
    expectDeleted(await client.spaces.delete(state.space!.id as number), state.space!.id as number, 'space');
    expect((await client.spaces.show(state.space!.id as number)).status).toBe(404);
  });
});
