import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { clickFixtures, DAY_MS, day, type ClickSeed } from './support/clicks';
import { writeMmdb } from './support/mmdb';
import { createLink, IP, UA, type LinkData } from './support/visitors';
import { invalid, NOT_FOUND } from './support/contract';

const STATS = '/api/v1/stats';
const DIMENSIONS = [
  'referrer',
  'country',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
] as const;
/** What the API answers: phpShort's names, and the continent. */
const API_DIMENSIONS = [...DIMENSIONS, 'city'] as const;
type ApiDimension = (typeof API_DIMENSIONS)[number];

/**
 * Per dimension: four stored values (the 2nd and 3rd tied, and in alphabetical order as phpShort writes them),
 * and the same four as the API writes them. A city row's country is the first country.
 */
const VALUES: Record<ApiDimension, [string, string, string, string]> = {
  referrer: ['z.example', 'a.example', 'm.example', 'b.example'],
  country: ['US', 'DE', 'GB', 'AU'],
  city: ['Zurich', 'Bern', 'Geneva', 'Basel'],
  continent: ['NA', 'AS', 'EU', 'AF'],
  browser: ['Safari', 'Chrome', 'Firefox', 'Edge'],
  operating_system: ['iOS', 'Android', 'Windows', 'Linux'],
  device: ['Mobile', 'Desktop', 'Tablet', 'Television'],
  language: ['fr', 'de', 'en', 'es'],
};
const SHOWN: Record<ApiDimension, [string, string, string, string]> = {
  ...VALUES,
  country: ['US:United States', 'DE:Germany', 'GB:United Kingdom', 'AU:Australia'],
  city: ['CH:Zurich', 'CH:Bern', 'CH:Geneva', 'CH:Basel'],
  device: ['mobile', 'desktop', 'tablet', 'television'],
};

describe('Stats', () => {
  /**
   * TRUST_PROXY=true, so that a visit's X-Forwarded-For gives its country; and a small city database, so that it
   * gives its city too.
   */
  let t: TestApp;
  const { insertClicks, madeDaysAgo } = clickFixtures(() => t);
  const dir = mkdtempSync(join(tmpdir(), 'stats-city-'));

  beforeAll(async () => {
    const cities = join(dir, 'city.mmdb');
    writeMmdb(cities, {
      '81.2.69.0/24': { country_code: 'GB', city: 'London' },
      '8.8.8.0/24': { country_code: 'US', city: 'Mountain View' },
    });
    t = await createTestApp({ TRUST_PROXY: 'true', GEOIP_CITY_DATABASE: cities });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function link(account: TestAccount, body: Record<string, unknown> = {}): Promise<LinkData> {
    return createLink(t, account, { url: 'https://example.com/landing', ...body });
  }

  function repeat(count: number, click: ClickSeed): ClickSeed[] {
    return Array.from({ length: count }, () => click);
  }

  function stats(account: TestAccount | null, linkId: number | string, query = ''): Test {
    const test = t.http().get(`${STATS}/${linkId}${query}`);
    return account === null ? test : test.set('Authorization', account.auth);
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

    it("answers phpShort's shape: the clicks per day of the range that have clicks, oldest first", async () => {
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
      const response = await stats(account, created.id, '?name=click&from=2026-01-10&to=2026-01-14');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expect(response.body).toEqual({
        data: [
          { value: '2026-01-10', count: 2 },
          { value: '2026-01-12', count: 1 },
          { value: '2026-01-14', count: 1 },
        ],
        status: 200,
      });
      // click is the default name, and clicks is the same.
      for (const query of ['?from=2026-01-10&to=2026-01-14', '?name=clicks&from=2026-01-10&to=2026-01-14']) {
        expect((await stats(account, created.id, query)).body).toEqual(response.body);
      }
    });

    it.each([
      // [from, to, the buckets, as phpShort picks them by the days between from and to]
      ['2026-03-01', '2026-03-01', ['2026-03-01 00', '2026-03-01 08', '2026-03-01 23']],
      ['2026-03-01', '2026-03-02', ['2026-03-01', '2026-03-02']],
      ['2026-01-01', '2026-03-31', ['2026-01-01', '2026-03-01', '2026-03-02', '2026-03-31']],
      ['2026-01-01', '2026-04-01', ['2026-01', '2026-03', '2026-04']],
      ['2025-01-01', '2026-12-31', ['2025-01', '2026-01', '2026-03', '2026-04', '2026-12']],
      ['2025-01-01', '2027-01-01', ['2025', '2026', '2027']],
    ])('counts clicks from %s to %s in buckets %j', async (from, to, buckets) => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { created_at: '2025-01-01T00:00:00Z' },
        { created_at: '2025-01-31T12:00:00Z' },
        { created_at: '2026-01-01T00:30:00Z' },
        { created_at: '2026-03-01T00:00:00Z' },
        { created_at: '2026-03-01T08:10:00Z' },
        { created_at: '2026-03-01T08:50:00Z' },
        { created_at: '2026-03-01T23:59:59.999Z' },
        { created_at: '2026-03-02T00:00:00Z' },
        { created_at: '2026-03-31T23:00:00Z' },
        { created_at: '2026-04-01T12:00:00Z' },
        { created_at: '2026-12-31T23:59:59Z' },
        { created_at: '2027-01-01T00:00:00Z' },
      ]);
      const response = await stats(account, created.id, `?name=click&from=${from}&to=${to}`);
      expect(response.status).toBe(200);
      const rows = response.body.data as { value: string; count: number }[];
      expect(rows.map((row) => row.value)).toEqual(buckets);
      expect(rows.every((row) => row.count > 0)).toBe(true);
      const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
      const inRange = [
        '2025-01-01T00:00:00Z',
        '2025-01-31T12:00:00Z',
        '2026-01-01T00:30:00Z',
        '2026-03-01T00:00:00Z',
        '2026-03-01T08:10:00Z',
        '2026-03-01T08:50:00Z',
        '2026-03-01T23:59:59.999Z',
        '2026-03-02T00:00:00Z',
        '2026-03-31T23:00:00Z',
        '2026-04-01T12:00:00Z',
        '2026-12-31T23:59:59Z',
        '2027-01-01T00:00:00Z',
      ].filter(
        (at) => Date.parse(at) >= Date.parse(from) && Date.parse(at) < Date.parse(from) + days * DAY_MS,
      );
      expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(inRange.length);
    });

    it('orders clicks over time as asked: newest first, or by count', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { created_at: '2026-01-10T10:00:00Z' },
        ...repeat(3, { created_at: '2026-01-11T10:00:00Z' }),
        ...repeat(2, { created_at: '2026-01-12T10:00:00Z' }),
      ]);
      const range = '&from=2026-01-10&to=2026-01-12';
      const values = async (query: string) =>
        (
          (await stats(account, created.id, `?name=click${range}${query}`)).body.data as { value: string }[]
        ).map((row) => row.value);
      expect(await values('')).toEqual(['2026-01-10', '2026-01-11', '2026-01-12']);
      expect(await values('&sort=desc')).toEqual(['2026-01-12', '2026-01-11', '2026-01-10']);
      expect(await values('&sort_by=count')).toEqual(['2026-01-10', '2026-01-12', '2026-01-11']);
      expect(await values('&sort_by=count&sort=desc')).toEqual(['2026-01-11', '2026-01-12', '2026-01-10']);
    });

    it("defaults to the days from the link's creation to today, today included", async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await madeDaysAgo(created.id, 40);
      await insertClicks(created.id, [
        { created_at: `${day(-41)}T12:00:00Z` },
        { created_at: `${day(-40)}T00:00:00Z` },
        { created_at: `${day(-35)}T12:00:00Z` },
        { created_at: new Date().toISOString() },
      ]);
      const response = await stats(account, created.id);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([
        { value: day(-40), count: 1 },
        { value: day(-35), count: 1 },
        { value: day(), count: 1 },
      ]);
      expect((await stats(account, created.id, '?name=country')).body.data).toEqual([
        { value: null, count: 3 },
      ]);
    });

    it('counts a link made today by the hour, as phpShort does for a one-day range', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const now = new Date();
      await insertClicks(created.id, [
        { created_at: `${day(-1)}T12:00:00Z` },
        { created_at: now.toISOString() },
      ]);
      const hour = now.toISOString().slice(11, 13);
      expect((await stats(account, created.id)).body.data).toEqual([{ value: `${day()} ${hour}`, count: 1 }]);
    });

    it("ends a range given only its start today, and starts one given only its end at the link's creation", async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await madeDaysAgo(created.id, 10);
      await insertClicks(created.id, [
        { created_at: `${day(-12)}T12:00:00Z` },
        { created_at: `${day(-10)}T12:00:00Z` },
        { created_at: `${day(-2)}T12:00:00Z` },
        { created_at: `${day(-1)}T12:00:00Z` },
      ]);
      const fromOnly = await stats(account, created.id, `?from=${day(-2)}`);
      expect(fromOnly.body.data).toEqual([
        { value: day(-2), count: 1 },
        { value: day(-1), count: 1 },
      ]);
      const toOnly = await stats(account, created.id, `?to=${day(-5)}`);
      expect(toOnly.body.data).toEqual([{ value: day(-10), count: 1 }]);
      // An end before the link was made is a one-day range.
      const before = await stats(account, created.id, `?to=${day(-12)}`);
      expect(before.body.data).toEqual([{ value: `${day(-12)} 12`, count: 1 }]);
    });

    it.each(API_DIMENSIONS)(
      'counts by %s as phpShort writes it, highest first, ties by value, unknown last (cities: known only)',
      async (name) => {
        const account = await createAccount(t);
        const created = await link(account);
        const [top, tieA, tieB, one] = VALUES[name];
        // A city is recorded with its country.
        const seed = (value: string | null): ClickSeed =>
          name === 'city' ? { city: value, country: value === null ? null : 'CH' } : { [name]: value };
        await insertClicks(created.id, [top, tieB, null, tieA, tieB, top, one, tieA, top].map(seed));
        const response = await stats(account, created.id, `?name=${name}`);
        expect(response.status).toBe(200);
        expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
        const [shownTop, shownTieA, shownTieB, shownOne] = SHOWN[name];
        expect(response.body.data).toEqual([
          { value: shownTop, count: 3 },
          { value: shownTieA, count: 2 },
          { value: shownTieB, count: 2 },
          { value: shownOne, count: 1 },
          // Cities are listed only where known: without a city database, none is.
          ...(name === 'city' ? [] : [{ value: null, count: 1 }]),
        ]);
        expect(response.body.meta).toMatchObject({ total: name === 'city' ? 4 : 5, per_page: 10 });
      },
    );

    it('sorts by value or by count, either way, unknown values first ascending by value as MySQL puts them', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        ...repeat(3, { referrer: 'b.example' }),
        { referrer: 'C.example' },
        ...repeat(2, { referrer: 'a.example' }),
        ...repeat(2, { referrer: null }),
      ]);
      const values = async (query: string) =>
        ((await stats(account, created.id, `?name=referrer${query}`)).body.data as { value: string }[]).map(
          (row) => row.value,
        );
      expect(await values('&sort_by=value&sort=asc')).toEqual([null, 'a.example', 'b.example', 'C.example']);
      expect(await values('&sort_by=value')).toEqual(['C.example', 'b.example', 'a.example', null]);
      // Equal counts by value, unknown last.
      expect(await values('&sort_by=count&sort=asc')).toEqual(['C.example', 'a.example', null, 'b.example']);
      expect(await values('&sort=desc')).toEqual(['b.example', 'a.example', null, 'C.example']);
    });

    it('searches the values as phpShort writes them, in any case, as a literal substring', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        ...repeat(2, { country: 'GB', referrer: 'news.example.org', device: 'Mobile' }),
        { country: 'US', referrer: 'a%b_c.example', device: 'Desktop' },
        { country: null, referrer: null, device: null },
      ]);
      const search = async (name: string, term: string): Promise<unknown> => {
        const query = `?name=${name}&search=${encodeURIComponent(term)}&search_by=value`;
        return (await stats(account, created.id, query)).body.data;
      };
      expect(await search('country', 'KING')).toEqual([{ value: 'GB:United Kingdom', count: 2 }]);
      expect(await search('country', 'us:')).toEqual([{ value: 'US:United States', count: 1 }]);
      expect(await search('referrer', 'EXAMPLE')).toEqual([
        { value: 'news.example.org', count: 2 },
        { value: 'a%b_c.example', count: 1 },
      ]);
      expect(await search('referrer', '%b_')).toEqual([{ value: 'a%b_c.example', count: 1 }]);
      expect(await search('referrer', '_')).toEqual([{ value: 'a%b_c.example', count: 1 }]);
      expect(await search('device', 'MOB')).toEqual([{ value: 'mobile', count: 2 }]);
      expect(await search('language', 'x')).toEqual([]);
    });

    describe('a dimension, paged as phpShort pages it', () => {
      /** 120 referrers: host000 has 2 clicks, the others 1, so the default order is host000, host001, ... */
      const HOSTS = Array.from(
        { length: 120 },
        (_, index) => `host${String(index).padStart(3, '0')}.example`,
      );
      let account: TestAccount;
      let linkId: number;

      beforeAll(async () => {
        account = await createAccount(t);
        linkId = (await link(account)).id;
        await insertClicks(linkId, [...HOSTS.map((referrer) => ({ referrer })), { referrer: HOSTS[0] }]);
      });

      function values(response: { body: { data: { value: string }[] } }): string[] {
        return response.body.data.map((row) => row.value);
      }

      it('answers 10 values by default in the list envelope, its links keeping the query', async () => {
        const response = await stats(account, linkId, '?name=referrer&search_by=value');
        expect(response.status).toBe(200);
        expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
        expect(response.body.data).toEqual([
          { value: HOSTS[0], count: 2 },
          ...HOSTS.slice(1, 10).map((value) => ({ value, count: 1 })),
        ]);
        const path = expect.stringMatching(new RegExp(`^http://[^/]+${STATS}/${linkId}$`)) as string;
        const pageUrl = (page: number) =>
          expect.stringMatching(
            new RegExp(`^http://[^/]+${STATS}/${linkId}\\?name=referrer&search_by=value&page=${page}$`),
          ) as string;
        expect(response.body.links).toEqual({
          first: pageUrl(1),
          last: pageUrl(12),
          prev: null,
          next: pageUrl(2),
        });
        expect(response.body.meta).toEqual({
          current_page: 1,
          from: 1,
          last_page: 12,
          links: expect.any(Array),
          path,
          per_page: 10,
          to: 10,
          total: 120,
        });
        expect(response.body.status).toBe(200);
      });

      it.each([10, 25, 50, 100])('answers per_page=%i values a page', async (perPage) => {
        const response = await stats(account, linkId, `?name=referrer&per_page=${perPage}&page=2`);
        expect(response.status).toBe(200);
        const shown = HOSTS.slice(perPage, 2 * perPage);
        expect(values(response)).toEqual(shown);
        expect(response.body.meta).toMatchObject({
          current_page: 2,
          from: perPage + 1,
          to: perPage + shown.length,
          last_page: Math.ceil(120 / perPage),
          per_page: perPage,
          total: 120,
        });
      });

      it.each([13, 2_147_483_647])(
        'is empty at page %i, past the last, with the total found',
        async (page) => {
          const past = await stats(account, linkId, `?name=referrer&page=${page}`);
          expect(past.status).toBe(200);
          expect(past.body.data).toEqual([]);
          expect(past.body.meta).toMatchObject({
            current_page: page,
            from: null,
            to: null,
            last_page: 12,
            total: 120,
          });
          const searched = await stats(
            account,
            linkId,
            `?name=referrer&search=host1&per_page=100&page=${page}`,
          );
          expect(searched.body.data).toEqual([]);
          expect(searched.body.meta).toMatchObject({ from: null, to: null, last_page: 1, total: 20 });
        },
      );

      it('searches and sorts every value before cutting the page', async () => {
        // host100 to host119 hold "host1", sorted by value from the last.
        const byValue = await stats(
          account,
          linkId,
          '?name=referrer&search=HOST1&sort_by=value&sort=desc&page=2',
        );
        expect(values(byValue)).toEqual(HOSTS.slice(100, 110).reverse());
        expect(byValue.body.meta).toMatchObject({ from: 11, to: 20, last_page: 2, total: 20 });
        // Least clicked first: host000, with 2, ends the last page.
        const byCount = await stats(
          account,
          linkId,
          '?name=referrer&sort_by=count&sort=asc&per_page=25&page=5',
        );
        expect(values(byCount)).toEqual([...HOSTS.slice(101, 120), HOSTS[0]]);
        expect(byCount.body.meta).toMatchObject({ from: 101, to: 120, last_page: 5, total: 120 });
        const none = await stats(account, linkId, '?name=referrer&search=nowhere');
        expect(none.body.data).toEqual([]);
        expect(none.body.meta).toMatchObject({
          current_page: 1,
          from: null,
          to: null,
          last_page: 1,
          total: 0,
        });
      });

      it('pages nothing for a range without clicks', async () => {
        const response = await stats(account, linkId, '?name=referrer&from=2020-01-01&to=2020-01-31');
        expect(response.body.data).toEqual([]);
        expect(response.body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null });
      });

      it.each([
        ['per_page=7', invalid('per_page', 'The selected per page is invalid.')],
        ['per_page=abc', invalid('per_page', 'The selected per page is invalid.')],
        ['per_page=1000', invalid('per_page', 'The selected per page is invalid.')],
        ['page=0', invalid('page', 'The page field must be at least 1.')],
        ['page=-1', invalid('page', 'The page field must be at least 1.')],
        ['page=x', invalid('page', 'The page field must be an integer.')],
        ['page=1.5', invalid('page', 'The page field must be an integer.')],
        ['page=2147483648', invalid('page', 'The page field must not be greater than 2147483647.')],
      ])(
        'refuses %s with a 422 naming the field, for a dimension and for clicks over time',
        async (query, body) => {
          for (const name of ['referrer', 'click']) {
            const response = await stats(account, linkId, `?name=${name}&${query}`);
            expect({ name, status: response.status, body: response.body }).toEqual({
              name,
              status: 422,
              body,
            });
          }
        },
      );
    });

    it('answers clicks over time whole, without links or meta, whatever per_page and page say', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const days = Array.from({ length: 15 }, (_, index) => `2026-01-${String(index + 1).padStart(2, '0')}`);
      await insertClicks(
        created.id,
        days.map((value) => ({ created_at: `${value}T12:00:00Z` })),
      );
      const whole = days.map((value) => ({ value, count: 1 }));
      for (const query of [
        '',
        '&per_page=10',
        '&per_page=10&page=2',
        '&page=99',
        '&sort_by=count&per_page=25',
      ]) {
        const response = await stats(
          account,
          created.id,
          `?name=click&from=2026-01-01&to=2026-01-31${query}`,
        );
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ data: whole, status: 200 });
      }
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
        { value: 'GB:United Kingdom', count: 2 },
        { value: 'DE:Germany', count: 1 },
      ]);
    });

    it('counts what real visits recorded, their city included', async () => {
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
      const expected: Record<ApiDimension, { value: string; count: number }[]> = {
        referrer: [{ value: 'news.example.org', count: 3 }],
        country: [
          { value: 'GB:United Kingdom', count: 2 },
          { value: 'US:United States', count: 1 },
        ],
        city: [
          { value: 'GB:London', count: 2 },
          { value: 'US:Mountain View', count: 1 },
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
      for (const name of API_DIMENSIONS) {
        expect({ name, data: (await stats(account, created.id, `?name=${name}`)).body.data }).toEqual({
          name,
          data: expected[name],
        });
      }
      const today = await stats(account, created.id, `?from=${day()}&to=${day()}`);
      expect((today.body.data as { count: number }[]).reduce((sum, row) => sum + row.count, 0)).toBe(3);
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
      ['from=1900-01-01&to=2026-01-01', invalid('from', 'The range must not be longer than 36500 days.')],
      ['from=9999-12-31', invalid('from', 'The from field must be a date before or equal to to.')],
      ['from=9999-12-30&to=9999-12-31', invalid('to', 'The to field must be a date before 9999-12-31.')],
      ['name=country&to=9999-12-31', invalid('to', 'The to field must be a date before 9999-12-31.')],
      ['to=10000-01-01', invalid('to', 'The to field must be a valid date in the format Y-m-d.')],
      ['from=+02026-01-01', invalid('from', 'The from field must be a valid date in the format Y-m-d.')],
      ['sort_by=name', invalid('sort_by', 'The selected sort by is invalid.')],
      ['sort=up', invalid('sort', 'The selected sort is invalid.')],
      ['search_by=name', invalid('search_by', 'The selected search by is invalid.')],
      [
        `search=${'s'.repeat(256)}`,
        invalid('search', 'The search field must not be greater than 255 characters.'),
      ],
    ])('refuses %s with a 422 naming the field', async (query, body) => {
      const account = await createAccount(t);
      const created = await link(account);
      const response = await stats(account, created.id, `?${query}`);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(body);
    });
  });
});
