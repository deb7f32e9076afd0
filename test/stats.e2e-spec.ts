import type { Response, Test } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { createLink, IP, UA, type LinkData } from './support/visitors';

const STATS = '/api/v1/stats';
const DAY_MS = 86_400_000;
const DIMENSIONS = [
  'referrer',
  'country',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
] as const;
type Dimension = (typeof DIMENSIONS)[number];

/** Per dimension: four values, the 2nd and 3rd tied and in alphabetical order, all fitting their columns. */
const VALUES: Record<Dimension, [string, string, string, string]> = {
  referrer: ['z.example', 'a.example', 'm.example', 'b.example'],
  country: ['US', 'DE', 'GB', 'AU'],
  continent: ['NA', 'AS', 'EU', 'AF'],
  browser: ['Safari', 'Chrome', 'Firefox', 'Edge'],
  operating_system: ['iOS', 'Android', 'Windows', 'Linux'],
  device: ['Mobile', 'Desktop', 'Tablet', 'Television'],
  language: ['fr', 'de', 'en', 'es'],
};

const NOT_FOUND = { message: 'Resource not found.', status: 404 };

type ClickSeed = { created_at?: string } & Partial<Record<Dimension, string | null>>;

/** `Y-m-d` of a UTC day, `offset` days from today. */
function day(offset = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + offset * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

function invalid(field: string, reason: string) {
  return { message: { [field]: [reason] }, status: 422 };
}

describe('Stats', () => {
  /** TRUST_PROXY=true, so that a visit's X-Forwarded-For gives its country. */
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
  });

  afterAll(async () => {
    await t?.close();
  });

  function link(account: TestAccount, body: Record<string, unknown> = {}): Promise<LinkData> {
    return createLink(t, account, { url: 'https://example.com/landing', ...body });
  }

  /** Clicks straight into the table, with the time and dimensions given (now, and nulls, by default). */
  async function insertClicks(linkId: number, clicks: ClickSeed[]): Promise<void> {
    const columns = ['created_at', ...DIMENSIONS] as const;
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
    await t.dataSource.query(
      `INSERT INTO clicks (link_id, ${columns.join(', ')}) VALUES ${rows.join(', ')}`,
      params,
    );
  }

  function repeat(count: number, click: ClickSeed): ClickSeed[] {
    return Array.from({ length: count }, () => click);
  }

  function stats(account: TestAccount | null, linkId: number | string, query = ''): Test {
    const test = t.http().get(`${STATS}/${linkId}${query}`);
    return account === null ? test : test.set('Authorization', account.auth);
  }

  function path(response: Response): string {
    const url = new URL(response.request.url);
    return `${url.origin}${url.pathname}`;
  }

  describe('GET /api/v1/stats/{id}', () => {
    it('needs a key', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const response = await stats(null, created.id);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthenticated.', status: 401 });
    });

    it("is a 404 for an unknown link and for another account's link", async () => {
      const owner = await createAccount(t);
      const other = await createAccount(t);
      const created = await link(owner);
      await insertClicks(created.id, [{}]);
      const answers = [
        await stats(other, created.id),
        await stats(owner, 2_147_483_647),
        await stats(owner, 'abc'),
        await stats(owner, 0),
      ];
      for (const response of answers) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      }
      expect((await stats(owner, created.id)).status).toBe(200);
    });

    it('counts clicks per UTC day, every day of the range oldest first, both ends included', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const other = await link(account);
      await insertClicks(created.id, [
        { created_at: '2026-01-09T23:59:59.999Z' },
        { created_at: '2026-01-10T00:00:00Z' },
        { created_at: '2026-01-10T12:00:00Z' },
        { created_at: '2026-01-12T23:59:59.999Z' },
        { created_at: '2026-01-14T23:59:59Z' },
        { created_at: '2026-01-15T00:00:00Z' },
      ]);
      await insertClicks(other.id, repeat(3, { created_at: '2026-01-11T10:00:00Z' }));
      const response = await stats(account, created.id, '?name=clicks&from=2026-01-10&to=2026-01-14');
      expect(response.status).toBe(200);
      const base = `${path(response)}?name=clicks&from=2026-01-10&to=2026-01-14&page=1`;
      expect(response.body).toEqual({
        data: [
          { value: '2026-01-10', count: 2 },
          { value: '2026-01-11', count: 0 },
          { value: '2026-01-12', count: 1 },
          { value: '2026-01-13', count: 0 },
          { value: '2026-01-14', count: 1 },
        ],
        links: { first: base, last: base, prev: null, next: null },
        meta: { current_page: 1, from: 1, last_page: 1, path: path(response), per_page: 10, to: 5, total: 5 },
        status: 200,
      });
      // clicks is the default name.
      const unnamed = await stats(account, created.id, '?from=2026-01-10&to=2026-01-14');
      expect(unnamed.body.data).toEqual(response.body.data);
    });

    it('lists one day when from and to are the same day', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, repeat(2, { created_at: '2026-03-01T08:00:00Z' }));
      const response = await stats(account, created.id, '?from=2026-03-01&to=2026-03-01');
      expect(response.body.data).toEqual([{ value: '2026-03-01', count: 2 }]);
      expect(response.body.meta.total).toBe(1);
    });

    it('paginates the days like a list', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { created_at: '2026-01-01T10:00:00Z' },
        ...repeat(3, { created_at: '2026-01-31T10:00:00Z' }),
      ]);
      const query = '?from=2026-01-01&to=2026-01-31';
      const first = await stats(account, created.id, query);
      expect(first.body.data).toHaveLength(10);
      expect(first.body.data[0]).toEqual({ value: '2026-01-01', count: 1 });
      expect(first.body.meta).toMatchObject({ current_page: 1, from: 1, to: 10, last_page: 4, total: 31 });
      const last = await stats(account, created.id, `${query}&page=4`);
      expect(last.body.data).toEqual([{ value: '2026-01-31', count: 3 }]);
      expect(last.body.meta).toMatchObject({
        current_page: 4,
        from: 31,
        to: 31,
        last_page: 4,
        per_page: 10,
        total: 31,
      });
      expect(last.body.links).toEqual({
        first: `${path(last)}?from=2026-01-01&to=2026-01-31&page=1`,
        last: `${path(last)}?from=2026-01-01&to=2026-01-31&page=4`,
        prev: `${path(last)}?from=2026-01-01&to=2026-01-31&page=3`,
        next: null,
      });
      const wide = await stats(account, created.id, `${query}&per_page=25&page=2`);
      expect((wide.body.data as { value: string }[]).map((row) => row.value)).toEqual([
        '2026-01-26',
        '2026-01-27',
        '2026-01-28',
        '2026-01-29',
        '2026-01-30',
        '2026-01-31',
      ]);
      expect(wide.body.meta).toMatchObject({
        current_page: 2,
        from: 26,
        to: 31,
        last_page: 2,
        per_page: 25,
        total: 31,
      });
      const beyond = await stats(account, created.id, `${query}&page=5`);
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta).toMatchObject({
        current_page: 5,
        from: null,
        to: null,
        last_page: 4,
        total: 31,
      });
    });

    it('defaults to the last 30 days, today included', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { created_at: `${day(-30)}T23:59:59Z` },
        { created_at: `${day(-29)}T00:00:00Z` },
        { created_at: new Date().toISOString() },
      ]);
      const response = await stats(account, created.id, '?per_page=100');
      expect(response.status).toBe(200);
      const days = response.body.data as { value: string; count: number }[];
      expect(days).toHaveLength(30);
      expect(response.body.meta.total).toBe(30);
      expect(days[0]).toEqual({ value: day(-29), count: 1 });
      expect(days[29]).toEqual({ value: day(0), count: 1 });
      expect(days.reduce((sum, row) => sum + row.count, 0)).toBe(2);
      const countries = await stats(account, created.id, '?name=country');
      expect(countries.body.data).toEqual([{ value: null, count: 2 }]);
    });

    it('ends a range given only its start today, and starts one given only its end 29 days before', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const fromOnly = await stats(account, created.id, `?from=${day(-2)}`);
      expect((fromOnly.body.data as { value: string }[]).map((row) => row.value)).toEqual([
        day(-2),
        day(-1),
        day(0),
      ]);
      const toOnly = await stats(account, created.id, '?to=2026-01-31&per_page=100');
      expect(toOnly.body.meta.total).toBe(30);
      expect(toOnly.body.data[0].value).toBe('2026-01-02');
      expect(toOnly.body.data[29].value).toBe('2026-01-31');
    });

    it.each(DIMENSIONS)('counts by %s, highest first, ties by value, unknown last', async (name) => {
      const account = await createAccount(t);
      const created = await link(account);
      const [top, tieA, tieB, one] = VALUES[name];
      await insertClicks(created.id, [
        { [name]: one },
        { [name]: tieB },
        { [name]: top },
        { [name]: null },
        { [name]: tieA },
        { [name]: tieB },
        { [name]: top },
        { [name]: tieA },
        { [name]: top },
      ]);
      const response = await stats(account, created.id, `?name=${name}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([
        { value: top, count: 3 },
        { value: tieA, count: 2 },
        { value: tieB, count: 2 },
        { value: one, count: 1 },
        { value: null, count: 1 },
      ]);
      expect(response.body.meta).toMatchObject({ current_page: 1, from: 1, to: 5, last_page: 1, total: 5 });
    });

    it('filters dimensions by from and to, both days included', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { created_at: '2026-01-09T23:59:59.999Z', country: 'US' },
        { created_at: '2026-01-10T00:00:00Z', country: 'GB' },
        { created_at: '2026-01-12T10:00:00Z', country: 'GB' },
        { created_at: '2026-01-12T23:59:59.999Z', country: 'DE' },
        { created_at: '2026-01-13T00:00:00Z', country: 'FR' },
      ]);
      const response = await stats(account, created.id, '?name=country&from=2026-01-10&to=2026-01-12');
      expect(response.body.data).toEqual([
        { value: 'GB', count: 2 },
        { value: 'DE', count: 1 },
      ]);
      expect(response.body.meta.total).toBe(2);
    });

    it('paginates a dimension, and still counts its values past the last page', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const hosts = Array.from({ length: 12 }, (_, index) => `host${String(index).padStart(2, '0')}.example`);
      // host00 twelve times, host01 eleven times, ... host11 once.
      await insertClicks(
        created.id,
        hosts.flatMap((host, index) => repeat(12 - index, { referrer: host })),
      );
      const second = await stats(account, created.id, '?name=referrer&page=2');
      expect(second.body.data).toEqual([
        { value: 'host10.example', count: 2 },
        { value: 'host11.example', count: 1 },
      ]);
      expect(second.body.meta).toMatchObject({ current_page: 2, from: 11, to: 12, last_page: 2, total: 12 });
      const beyond = await stats(account, created.id, '?name=referrer&page=3');
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta).toMatchObject({
        current_page: 3,
        from: null,
        to: null,
        last_page: 2,
        total: 12,
      });
      const none = await stats(account, created.id, '?name=referrer&from=2020-01-01&to=2020-01-31');
      expect(none.body.data).toEqual([]);
      expect(none.body.meta).toMatchObject({ from: null, to: null, last_page: 1, total: 0 });
    });

    it('counts what real visits recorded', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const visit = (ua: string, ip: string, language: string) =>
        t
          .http()
          .get(`/${created.alias}`)
          .set('User-Agent', ua)
          .set('X-Forwarded-For', ip)
          .set('Accept-Language', language)
          .set('Referer', 'https://news.example.org/story');
      expect((await visit(UA.iPhoneSafari, IP.gb, 'fr-CH')).status).toBe(302);
      expect((await visit(UA.androidChrome, IP.gb, 'en-GB')).status).toBe(302);
      expect((await visit(UA.windowsEdge, IP.us, 'en-US')).status).toBe(302);
      expect((await t.http().get(`/${created.alias}`).set('User-Agent', UA.googlebot)).status).toBe(302);
      const expected: Record<Dimension, { value: string; count: number }[]> = {
        referrer: [{ value: 'news.example.org', count: 3 }],
        country: [
          { value: 'GB', count: 2 },
          { value: 'US', count: 1 },
        ],
        continent: [
          { value: 'EU', count: 2 },
          { value: 'NA', count: 1 },
        ],
        browser: [
          { value: 'Chrome', count: 1 },
          { value: 'Edge', count: 1 },
          { value: 'Safari', count: 1 },
        ],
        operating_system: [
          { value: 'Android', count: 1 },
          { value: 'Windows', count: 1 },
          { value: 'iOS', count: 1 },
        ],
        device: [
          { value: 'Mobile', count: 2 },
          { value: 'Desktop', count: 1 },
        ],
        language: [
          { value: 'en', count: 2 },
          { value: 'fr', count: 1 },
        ],
      };
      for (const name of DIMENSIONS) {
        expect({ name, data: (await stats(account, created.id, `?name=${name}`)).body.data }).toEqual({
          name,
          data: expected[name],
        });
      }
      const today = await stats(account, created.id, `?from=${day()}&to=${day()}`);
      expect(today.body.data).toEqual([{ value: day(), count: 3 }]);
    });

    it.each([
      ['name=visitors', invalid('name', 'The selected name is invalid.')],
      [
        'name=clicks&from=2026-02-30',
        invalid('from', 'The from field must be a valid date in the format Y-m-d.'),
      ],
      ['to=2026-13-01', invalid('to', 'The to field must be a valid date in the format Y-m-d.')],
      ['from=26-01-01', invalid('from', 'The from field must be a valid date in the format Y-m-d.')],
      ['from=2026-01-01T00:00', invalid('from', 'The from field must be a valid date in the format Y-m-d.')],
      [
        'from=2026-03-02&to=2026-03-01',
        invalid('from', 'The from field must be a date before or equal to to.'),
      ],
      ['from=2010-01-01&to=2026-01-01', invalid('from', 'The range must not be longer than 3660 days.')],
      ['from=9999-12-31', invalid('from', 'The from field must be a date before or equal to to.')],
      ['from=9999-12-30&to=9999-12-31', invalid('to', 'The to field must be a date before 9999-12-31.')],
      ['name=country&to=9999-12-31', invalid('to', 'The to field must be a date before 9999-12-31.')],
      ['to=10000-01-01', invalid('to', 'The to field must be a valid date in the format Y-m-d.')],
      ['from=+02026-01-01', invalid('from', 'The from field must be a valid date in the format Y-m-d.')],
      ['per_page=7', invalid('per_page', 'The selected per page is invalid.')],
      ['page=0', invalid('page', 'The page field must be at least 1.')],
      ['page=x', invalid('page', 'The page field must be an integer.')],
    ])('refuses %s with a 422 naming the field', async (query, body) => {
      const account = await createAccount(t);
      const created = await link(account);
      const response = await stats(account, created.id, `?${query}`);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(body);
    });
  });
});
