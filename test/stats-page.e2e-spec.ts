import type { Response, Test } from 'supertest';
import { hashSecret, verifySecret } from '../src/common/secret-hash';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { clickFixtures, day } from './support/clicks';
import { createLink, expectPage, formAction, unique, type LinkData } from './support/visitors';
import { NOT_FOUND } from './support/contract';

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

const STATS_PASSWORD_PAGE = {
  status: 200,
  title: 'Password required',
  heading: 'These statistics are protected',
};

interface StatsRow {
  value: string | null;
  count: number;
}

interface PublicStats {
  alias: string;
  from: string;
  to: string;
  clicks: number;
  days: StatsRow[];
  dimensions: Record<Dimension, StatsRow[]>;
}

/** A UTC day as the English page writes it. */
function written(offset = 0): string {
  return new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day(offset)}T00:00:00Z`),
  );
}

/** The rows of the chart's table: its first column and its count. */
function tableRows(html: string): [string, number][] {
  const chart = /aria-labelledby="chart-heading">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  return [...chart.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([\d,.]+)<\/td><\/tr>/g)].map((match) => [
    match[1],
    Number(match[2].replace(/[,.]/g, '')),
  ]);
}

/** A ranked list's items: the name shown and the count. */
function ranked(html: string, heading: string): [string, number][] {
  const section = new RegExp(`<h2 id="[^"]+">${heading}</h2>([\\s\\S]*?)</section>`).exec(html);
  if (section === null) throw new Error(`no section ${heading}`);
  return [
    ...section[1].matchAll(/<span class="bar-name">([^<]*)<\/span>\s*<span class="bar-count">([\d,.]+) /g),
  ].map((match) => [match[1], Number(match[2].replace(/[,.]/g, ''))]);
}

describe('The public stats page, /{alias}/stats', () => {
  /** TRUST_PROXY=true: X-Forwarded-For names the visitor, X-Forwarded-Proto whether it came over HTTPS. */
  let t: TestApp;
  const { insertClicks, madeDaysAgo: age } = clickFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
  });

  afterAll(async () => {
    await t?.close();
  });

  function link(account: TestAccount, body: Record<string, unknown> = {}): Promise<LinkData> {
    return createLink(t, account, { url: 'https://example.com/landing', ...body });
  }

  function page(
    path: string,
    options: { json?: boolean; auth?: string; cookie?: string; language?: string } = {},
  ): Test {
    const test = t.http().get(path);
    if (options.json === true) test.set('Accept', 'application/json');
    if (options.auth !== undefined) test.set('Authorization', options.auth);
    if (options.cookie !== undefined) test.set('Cookie', options.cookie);
    if (options.language !== undefined) test.set('Accept-Language', options.language);
    return test;
  }

  function submit(
    path: string,
    password: string | undefined,
    options: { json?: boolean; ip?: string; https?: boolean } = {},
  ): Test {
    const test = t
      .http()
      .post(path)
      .set('X-Forwarded-For', options.ip ?? '192.0.2.10');
    if (options.json === true) test.set('Accept', 'application/json');
    if (options.https === true) test.set('X-Forwarded-Proto', 'https');
    return test.type('form').send(password === undefined ? {} : { password });
  }

  function expectStatsPage(response: Response, name: string): string {
    const html = expectPage(response, { status: 200, title: `Statistics of ${name}`, heading: name });
    expect(html).toContain('<main class="wide">');
    return html;
  }

  function expectStatsJson(response: Response, alias: string, clicks: number) {
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(Object.keys(response.body)).toEqual(['data', 'status']);
    expect(response.body.status).toBe(200);
    const data = response.body.data as PublicStats;
    expect(Object.keys(data)).toEqual(['alias', 'from', 'to', 'clicks', 'days', 'dimensions']);
    expect(data).toMatchObject({ alias, from: day(-29), to: day(), clicks });
    expect(data.days).toHaveLength(30);
    expect(data.days[0]).toEqual({ value: day(-29), count: 0 });
    expect(data.days[29]).toEqual({ value: day(), count: clicks });
    expect(Object.keys(data.dimensions)).toEqual([...DIMENSIONS]);
    return data;
  }

  /** The stats cookie a response sets, as a browser would send it back. */
  function cookieOf(response: Response): string {
    const header = response.headers['set-cookie'] as unknown as string[] | undefined;
    expect(header).toHaveLength(1);
    return header![0].split(';')[0];
  }

  describe('as a dashboard', () => {
    it('is headed by the link’s title and short URL, and counts no click', async () => {
      const account = await createAccount(t);
      const created = await link(account, { title: 'Spring newsletter' });
      await insertClicks(created.id, [{ country: 'GB' }]);
      const html = expectStatsPage(await page(`/${created.alias}/stats`), 'Spring newsletter');
      expect(html).toContain('<p class="kicker">Link statistics</p><h1>Spring newsletter</h1>');
      expect(html).toContain(
        `<p class="short-url"><a class="url" href="/${created.alias}">http://localhost:3000/${created.alias}</a></p>`,
      );
      // One click, said as one.
      expect(html).toContain('<strong>1 click</strong> from');
      const [row] = await t.dataSource.query<{ clicks: number }[]>(
        'SELECT clicks FROM link_counters WHERE link_id = $1',
        [created.id],
      );
      expect(row.clicks).toBe(0);
    });

    it('is headed by the alias when the link has no title', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const html = expectStatsPage(await page(`/${created.alias}/stats`), created.alias);
      expect(html).toContain('<strong>0 clicks</strong> from');
      expect(html).toContain('<p id="chart-summary" class="muted">No clicks in this period.</p>');
      expect(html.match(/<p class="muted">No clicks yet<\/p>/g)).toHaveLength(DIMENSIONS.length);
    });

    it('charts the last 30 days by default, a bar a day, with a text equivalent and every number in a table', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { created_at: `${day(-3)}T08:00:00Z` },
        { created_at: `${day(-3)}T23:59:59Z` },
        { created_at: `${day()}T00:00:00Z` },
        // Outside the 30 days.
        { created_at: `${day(-30)}T12:00:00Z` },
      ]);
      const html = expectStatsPage(await page(`/${created.alias}/stats`), created.alias);
      expect(html).toContain(
        `<strong>3 clicks</strong> from <span class="nowrap">${written(-29)}</span> to <span class="nowrap">${written()}</span> (UTC)`,
      );
      expect(html).toContain('<a href="?range=30" aria-current="page">30 days</a>');
      expect(html.match(/aria-current="page"/g)).toHaveLength(1);
      // Inline SVG, named for screen readers by its heading and summary.
      expect(html).toContain(
        '<svg class="chart-bars" viewBox="0 0 300 100" preserveAspectRatio="none" role="img" aria-labelledby="chart-heading chart-summary" focusable="false">',
      );
      expect(html).toContain(`The busiest: ${written(-3)}, with 2 clicks.`);
      expect(html.match(/<rect x=/g)).toHaveLength(2);
      expect(html).toContain(`<title>${written(-3)}: 2 clicks</title>`);
      const rows = tableRows(html);
      expect(rows).toHaveLength(30);
      expect(rows[0]).toEqual([written(-29), 0]);
      expect(rows[26]).toEqual([written(-3), 2]);
      expect(rows[29]).toEqual([written(), 1]);
    });

    it.each([
      ['7', 7, -6],
      ['90', 90, -89],
    ])('switches to %s days', async (range, bars, first) => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [{ created_at: `${day(first)}T10:00:00Z` }, { country: 'GB' }]);
      const html = expectStatsPage(await page(`/${created.alias}/stats?range=${range}`), created.alias);
      expect(html).toContain(`<a href="?range=${range}" aria-current="page">`);
      expect(html).toContain(`<strong>2 clicks</strong> from <span class="nowrap">${written(first)}</span>`);
      const rows = tableRows(html);
      expect(rows).toHaveLength(bars);
      expect(rows[0]).toEqual([written(first), 1]);
    });

    it('shows all time of a link made today by the hour (UTC)', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [{ created_at: `${day()}T00:30:00Z` }]);
      const html = expectStatsPage(await page(`/${created.alias}/stats?range=all`), created.alias);
      expect(html).toContain('<a href="?range=all" aria-current="page">All time</a>');
      expect(html).toContain('<th scope="col">Hour (UTC)</th>');
      const rows = tableRows(html);
      expect(rows).toHaveLength(24);
      expect(rows[0]).toEqual(['00:00', 1]);
      expect(rows[23]).toEqual(['23:00', 0]);
    });

    it('shows all time by month from 90 days on, and by year from 730 days on', async () => {
      const account = await createAccount(t);
      const months = await link(account);
      await age(months.id, 200);
      await insertClicks(months.id, [{ created_at: `${day(-150)}T12:00:00Z` }, {}]);
      const byMonth = expectStatsPage(await page(`/${months.alias}/stats?range=all`), months.alias);
      expect(byMonth).toContain('<th scope="col">Month</th>');
      const monthRows = tableRows(byMonth);
      expect(monthRows.length).toBeGreaterThanOrEqual(7);
      expect(monthRows.length).toBeLessThanOrEqual(8);
      expect(monthRows.reduce((sum, [, count]) => sum + count, 0)).toBe(2);

      const years = await link(account);
      await age(years.id, 800);
      await insertClicks(years.id, [{ created_at: `${day(-790)}T12:00:00Z` }]);
      const byYear = expectStatsPage(await page(`/${years.alias}/stats?range=all`), years.alias);
      expect(byYear).toContain('<th scope="col">Year</th>');
      const yearRows = tableRows(byYear);
      expect(yearRows.map(([year]) => Number(year))).toEqual(
        Array.from({ length: yearRows.length }, (_, index) => Number(day(-799).slice(0, 4)) + index),
      );
      expect(yearRows[yearRows.length - 1][0]).toBe(day().slice(0, 4));
      expect(yearRows.reduce((sum, [, count]) => sum + count, 0)).toBe(1);
    });

    it.each(['', '365', '7d', 'ALL', '-1'])('reads range=%j as the default 30 days', async (range) => {
      const account = await createAccount(t);
      const created = await link(account);
      const html = expectStatsPage(await page(`/${created.alias}/stats?range=${range}`), created.alias);
      expect(html).toContain('<a href="?range=30" aria-current="page">30 days</a>');
      expect(tableRows(html)).toHaveLength(30);
    });

    it('reads a repeated range as the default too', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const html = expectStatsPage(await page(`/${created.alias}/stats?range=7&range=90`), created.alias);
      expect(tableRows(html)).toHaveLength(30);
    });

    it('ranks each dimension with readable names: countries, languages, "Direct" for no referrer', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [
        { country: 'GB', continent: 'EU', language: 'en', referrer: 'news.example.org', device: 'Mobile' },
        { country: 'GB', continent: 'EU', language: 'en', device: 'Mobile' },
        { country: 'DE', continent: 'EU', language: 'de', device: 'Desktop' },
        { country: 'US', continent: 'NA', language: 'en', browser: 'Chrome', operating_system: 'OS X' },
      ]);
      const html = expectStatsPage(await page(`/${created.alias}/stats`), created.alias);
      expect(ranked(html, 'Referrers')).toEqual([
        ['Direct', 3],
        ['news.example.org', 1],
      ]);
      expect(ranked(html, 'Countries')).toEqual([
        ['United Kingdom', 2],
        ['Germany', 1],
        ['United States', 1],
      ]);
      expect(ranked(html, 'Continents')).toEqual([
        ['Europe', 3],
        ['North America', 1],
      ]);
      expect(ranked(html, 'Languages')).toEqual([
        ['English', 3],
        ['German', 1],
      ]);
      expect(ranked(html, 'Devices')).toEqual([
        ['Mobile', 2],
        ['Desktop', 1],
        ['Unknown', 1],
      ]);
      expect(ranked(html, 'Browsers')).toEqual([
        ['Unknown', 3],
        ['Chrome', 1],
      ]);
      expect(ranked(html, 'Operating systems')).toEqual([
        ['Unknown', 3],
        ['OS X', 1],
      ]);
      // Each bar's share of the period's clicks.
      expect(html).toContain('<span class="bar-count">3 <span class="muted">75%</span></span>');
      expect(html).toContain('<rect width="75.00" height="4" />');
      expect(html).not.toContain('>GB<');
    });

    it('draws the countries on a world map of inline SVG, a shape titled with each count, the counts in a table beside it', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [{ country: 'GB' }, { country: 'GB' }, { country: 'DE' }, {}]);
      const response = await page(`/${created.alias}/stats`);
      const html = expectStatsPage(response, created.alias);
      expect(response.headers['content-security-policy']).toContain("script-src 'none'");

      const map =
        /<svg class="map" viewBox="0 0 960 470" role="img" aria-labelledby="map-heading"[^>]*>(.*?)<\/svg>/s.exec(
          html,
        );
      expect(map).not.toBeNull();
      expect(map![1]).toContain('class="map-step-4"><title>United Kingdom: 2 clicks</title></path>');
      expect(map![1]).toContain('class="map-step-2"><title>Germany: 1 click</title></path>');
      expect(map![1].match(/<path d="M[^"]+" class="map-step-0"\/>/g)!.length).toBeGreaterThan(150);
      expect(html).toContain('<h2 id="map-heading">Visits by country</h2>');
      const table = /<table id="map-table">.*?<\/table>/s.exec(html)![0];
      expect(
        [...table.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>(\d+)<\/td><\/tr>/g)].map((row) => [
          row[1],
          Number(row[2]),
        ]),
      ).toEqual([
        ['United Kingdom', 2],
        ['Germany', 1],
      ]);
    });

    it('speaks the visitor’s language, names included', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [{ country: 'GB', language: 'en' }]);
      const html = expectPage(await page(`/${created.alias}/stats`, { language: 'fr-FR' }), {
        status: 200,
        title: `Statistiques de ${created.alias}`,
        heading: created.alias,
        lang: 'fr',
      });
      expect(ranked(html, 'Sites référents')).toEqual([['Accès direct', 1]]);
      expect(ranked(html, 'Pays')).toEqual([['Royaume-Uni', 1]]);
      expect(ranked(html, 'Langues')).toEqual([['Anglais', 1]]);
      expect(html).toContain('<strong>1 clic</strong> du');
    });

    it('escapes the values it shows', async () => {
      const account = await createAccount(t);
      const created = await link(account, { title: '<b>"Title"</b>' });
      await insertClicks(created.id, [{ referrer: '<script>alert("x")</script>&' }]);
      const html = expectStatsPage(
        await page(`/${created.alias}/stats`),
        '&lt;b&gt;&quot;Title&quot;&lt;/b&gt;',
      );
      expect(html).toContain(
        '<span class="bar-name">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;</span>',
      );
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<b>');
    });
  });

  describe('as JSON', () => {
    it('answers JSON for Accept: application/json', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const hosts = Array.from({ length: 12 }, (_, index) => `host${String(index).padStart(2, '0')}.example`);
      await insertClicks(created.id, [
        ...hosts.map((referrer) => ({ referrer, country: 'GB', device: 'Mobile' })),
        { created_at: `${day(-30)}T12:00:00Z`, country: 'US' },
      ]);
      const data = expectStatsJson(await page(`/${created.alias}/stats`, { json: true }), created.alias, 12);
      expect(data.dimensions.country).toEqual([{ value: 'GB', count: 12 }]);
      expect(data.dimensions.device).toEqual([{ value: 'Mobile', count: 12 }]);
      expect(data.dimensions.language).toEqual([{ value: null, count: 12 }]);
      // The ten most frequent values of each dimension.
      expect(data.dimensions.referrer).toEqual(hosts.slice(0, 10).map((value) => ({ value, count: 1 })));
    });

    it('follows the range too, a count for every day', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      await insertClicks(created.id, [{ created_at: `${day(-80)}T12:00:00Z` }]);
      const response = await page(`/${created.alias}/stats?range=90`, { json: true });
      const data = response.body.data as PublicStats;
      expect(data).toMatchObject({ from: day(-89), to: day(), clicks: 1 });
      expect(data.days).toHaveLength(90);
      expect(data.days[9]).toEqual({ value: day(-80), count: 1 });
    });
  });

  describe('who may see it', () => {
    it('is a 404 for an unknown alias, as a page or JSON', async () => {
      const alias = unique('nothing');
      expectPage(await page(`/${alias}/stats`), { status: 404, title: 'Link not found' });
      const json = await page(`/${alias}/stats`, { json: true });
      expect(json.status).toBe(404);
      expect(json.body).toEqual(NOT_FOUND);
    });

    it('is a 404 for a disabled link, as a page or JSON, even to its owner, as its redirect is', async () => {
      const account = await createAccount(t);
      const created = await link(account, { disabled: '1' });
      expectPage(await page(`/${created.alias}/stats`), { status: 404, title: 'Link not found' });
      const json = await page(`/${created.alias}/stats`, { json: true, auth: account.auth });
      expect(json.status).toBe(404);
      expect(json.body).toEqual(NOT_FOUND);
      const posted = await submit(`/${created.alias}/stats`, 'anything');
      expect(posted.status).toBe(404);
    });

    it("keeps a private link's stats to its owner's key, and says so", async () => {
      const owner = await createAccount(t);
      const other = await createAccount(t);
      const created = await link(owner, { privacy: '1' });
      await insertClicks(created.id, [{ country: 'GB' }]);
      for (const auth of [undefined, other.auth, 'Bearer not-a-key', owner.apiKey]) {
        const html = expectPage(await page(`/${created.alias}/stats`, { auth }), {
          status: 403,
          title: 'Private statistics',
        });
        expect(html).toContain('<p>The statistics of this link are private.</p>');
        expect(html).toContain('<p>Only the owner of the link can see them.</p>');
        const json = await page(`/${created.alias}/stats`, { auth, json: true });
        expect(json.status).toBe(403);
        expect(json.body).toEqual({ message: 'Forbidden.', status: 403 });
      }
      expectStatsPage(await page(`/${created.alias}/stats`, { auth: owner.auth }), created.alias);
      expectStatsJson(
        await page(`/${created.alias}/stats`, { auth: owner.auth, json: true }),
        created.alias,
        1,
      );
    });

    it("keeps a private link's stats from the owner's keys that could not read them through the API", async () => {
      const owner = await createAccount(t);
      const space = await t
        .http()
        .post('/api/v1/spaces')
        .set('Authorization', owner.auth)
        .send({ name: 'S' });
      const created = await link(owner, { privacy: '1' });
      const key = async (body: Record<string, unknown>) => {
        const response = await t.http().post('/api/v1/keys').set('Authorization', owner.auth).send(body);
        expect(response.status).toBe(201);
        return `Bearer ${(response.body as { data: { key: string } }).data.key}`;
      };
      const noStats = await key({ name: 'links', scopes: ['links.write'] });
      const elsewhere = await key({
        name: 'other space',
        scopes: ['stats.read'],
        space_ids: [space.body.data.id],
      });
      const reader = await key({ name: 'stats', scopes: ['stats.read'] });
      for (const auth of [noStats, elsewhere]) {
        const json = await page(`/${created.alias}/stats`, { auth, json: true });
        expect(json.body).toEqual({ message: 'Forbidden.', status: 403 });
      }
      expectStatsJson(await page(`/${created.alias}/stats`, { auth: reader, json: true }), created.alias, 0);
    });

    it('sends a POST to a public link’s stats on to the page', async () => {
      const account = await createAccount(t);
      const created = await link(account);
      const response = await submit(`/${created.alias}/stats?range=7`, 'anything');
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe(`/${created.alias}/stats?range=7`);
      expect(response.headers['set-cookie']).toBeUndefined();
      expectStatsJson(await submit(`/${created.alias}/stats`, 'anything', { json: true }), created.alias, 0);
    });
  });

  describe('behind the stats password', () => {
    it('asks for the stats password, naming it, in a form that keeps the period', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      await insertClicks(created.id, [{ country: 'GB' }, { country: 'GB' }]);
      const html = expectPage(await page(`/${created.alias}/stats?range=90`), STATS_PASSWORD_PAGE);
      expect(formAction(html)).toBe(`/${created.alias}/stats?range=90`);
      expect(html).toContain('<label for="password">Statistics password</label>');
      expect(html).toContain(
        '<p>Enter the statistics password of this link. It is not the password that opens the link itself.</p>',
      );
      expect(html).toContain('<input id="password" name="password" type="password"');
      expect(html).not.toContain('class="dashboard"');
      const json = await page(`/${created.alias}/stats`, { json: true });
      expect(json.status).toBe(401);
      expect(json.body).toEqual({ message: 'Password required.', status: 401 });
    });

    it('refuses a wrong stats password with the form again, the message tied to the field', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      for (const password of ['Stats secret', '', undefined]) {
        const response = await submit(`/${created.alias}/stats`, password);
        const html = expectPage(response, { ...STATS_PASSWORD_PAGE, status: 403 });
        expect(html).toContain('aria-invalid="true" aria-describedby="password-error"');
        expect(html).toContain(
          '<p class="error" id="password-error" role="alert">That password is not right. Try again.</p>',
        );
        expect(html).not.toContain('class="dashboard"');
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      const wrongJson = await submit(`/${created.alias}/stats`, 'nope', { json: true });
      expect(wrongJson.status).toBe(403);
      expect(wrongJson.body).toEqual({ message: 'Password required.', status: 403 });
    });

    it('unlocks the page with a signed HttpOnly cookie, so that it can be reloaded and bookmarked', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      await insertClicks(created.id, [{ country: 'GB' }, { country: 'GB' }]);
      const response = await submit(`/${created.alias}/stats?range=7`, 'stats secret');
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe(`/${created.alias}/stats?range=7`);
      expect(response.headers['cache-control']).toBe('private, no-store');
      const [setCookie] = response.headers['set-cookie'] as unknown as string[];
      expect(setCookie).toMatch(
        new RegExp(
          `^stats_access=${created.id}\\.\\d+\\.[A-Za-z0-9_-]{43}; Path=/${created.alias}/stats; Max-Age=86400; HttpOnly; SameSite=Lax$`,
        ),
      );
      const cookie = cookieOf(response);
      for (const path of [`/${created.alias}/stats?range=7`, `/${created.alias}/stats`]) {
        const html = expectStatsPage(await page(path, { cookie }), created.alias);
        expect(ranked(html, 'Countries')).toEqual([['United Kingdom', 2]]);
      }
      // Without it, or with one that was altered, the form again.
      expectPage(await page(`/${created.alias}/stats`), STATS_PASSWORD_PAGE);
      const [name, value] = cookie.split('=');
      const [id, expires, signature] = value.split('.');
      for (const forged of [
        `${name}=${id}.${Number(expires) + 1000}.${signature}`,
        `${name}=${id}.${expires}.${signature.slice(0, -2)}AA`,
        `${name}=${id}.${expires}`,
        `${name}=garbage`,
        `other=${value}`,
      ]) {
        expectPage(await page(`/${created.alias}/stats`, { cookie: forged }), STATS_PASSWORD_PAGE);
      }
    });

    it('marks the cookie Secure when the page was reached over HTTPS', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      const response = await submit(`/${created.alias}/stats`, 'stats secret', { https: true });
      expect(response.status).toBe(303);
      const [setCookie] = response.headers['set-cookie'] as unknown as string[];
      expect(setCookie.endsWith('; HttpOnly; SameSite=Lax; Secure')).toBe(true);
    });

    it("does not open another link's stats, and stops opening once the password changes", async () => {
      const account = await createAccount(t);
      const first = await link(account, { privacy: '2', password: 'same' });
      const second = await link(account, { privacy: '2', password: 'same' });
      const cookie = cookieOf(await submit(`/${first.alias}/stats`, 'same'));
      expectStatsPage(await page(`/${first.alias}/stats`, { cookie }), first.alias);
      expectPage(await page(`/${second.alias}/stats`, { cookie }), STATS_PASSWORD_PAGE);
      const changed = await t
        .http()
        .put(`/api/v1/links/${first.id}`)
        .set('Authorization', account.auth)
        .type('form')
        .send({ password: 'new one' });
      expect(changed.status).toBe(200);
      expectPage(await page(`/${first.alias}/stats`, { cookie }), STATS_PASSWORD_PAGE);
    });

    it('answers JSON for the right password without a cookie', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      await insertClicks(created.id, [{ country: 'GB' }, { country: 'GB' }]);
      const response = await submit(`/${created.alias}/stats`, 'stats secret', { json: true });
      expectStatsJson(response, created.alias, 2);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('does not take the redirect password for the stats password', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        privacy: '2',
        password: 'stats secret',
        redirect_password: 'visit',
      });
      expectPage(await submit(`/${created.alias}/stats`, 'visit'), { ...STATS_PASSWORD_PAGE, status: 403 });
    });

    it("shows a password link's stats to its owner's key without the password", async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      expectStatsPage(await page(`/${created.alias}/stats`, { auth: account.auth }), created.alias);
    });

    it('upgrades a stats password hash made with earlier scrypt parameters, and signs the cookie with the new one', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      const earlier = await hashSecret('stats secret', { N: 16384, r: 8, p: 1 });
      await t.dataSource.query('UPDATE links SET password_hash = $1 WHERE id = $2', [earlier, created.id]);
      const cookie = cookieOf(await submit(`/${created.alias}/stats`, 'stats secret'));
      const [{ password_hash: upgraded }] = await t.dataSource.query<{ password_hash: string }[]>(
        'SELECT password_hash FROM links WHERE id = $1',
        [created.id],
      );
      expect(upgraded).toMatch(/^scrypt\$16384\$8\$5\$/);
      await expect(verifySecret('stats secret', upgraded)).resolves.toBe(true);
      expectStatsPage(await page(`/${created.alias}/stats`, { cookie }), created.alias);
    });

    it('limits stats password attempts per visitor', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      const path = `/${created.alias}/stats`;
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expect((await submit(path, 'wrong', { ip: '198.51.100.20' })).status).toBe(403);
      }
      const locked = await submit(path, 'stats secret', { ip: '198.51.100.20' });
      const html = expectPage(locked, { status: 429, title: 'Too many attempts' });
      expect(html).toContain('If you do not know the password, ask whoever shared the link.');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(15 * 60 - 30);
      const lockedJson = await submit(path, 'stats secret', { ip: '198.51.100.20', json: true });
      expect(lockedJson.status).toBe(429);
      expect(lockedJson.body).toEqual({ message: 'Too Many Attempts.', status: 429 });
      expect((await submit(path, 'stats secret', { ip: '198.51.100.21' })).status).toBe(303);
    });

    it('allows no more than 5 stats password guesses when a visitor sends many at once', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          submit(`/${created.alias}/stats`, `guess-${index}`, { ip: '198.51.100.30' }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([...Array<number>(5).fill(403), ...Array<number>(15).fill(429)]);
    });
  });
  describe('its refusals, answered by the error filter', () => {
    /** The answer as JSON: status, the exact bytes of the body, its type, and the request id the caller gave. */
    function expectJsonError(response: Response, status: number, body: string, requestId: string): void {
      expect(response.status).toBe(status);
      expect(response.text).toBe(body);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['x-request-id']).toBe(requestId);
      expect(response.headers['set-cookie']).toBeUndefined();
    }

    it('writes each JSON error body as it always has, byte for byte, under the request id', async () => {
      const account = await createAccount(t);
      const open = await link(account);
      const secret = await link(account, { privacy: '1' });
      const locked = await link(account, { privacy: '2', password: 'stats secret' });
      const cases: [Test, number, string][] = [
        [
          page(`/${unique('nothing')}/stats`, { json: true }),
          404,
          '{"message":"Resource not found.","status":404}',
        ],
        [
          submit(`/${unique('nothing')}/stats`, 'x', { json: true }),
          404,
          '{"message":"Resource not found.","status":404}',
        ],
        [page(`/${secret.alias}/stats`, { json: true }), 403, '{"message":"Forbidden.","status":403}'],
        [submit(`/${secret.alias}/stats`, 'x', { json: true }), 403, '{"message":"Forbidden.","status":403}'],
        [
          page(`/${locked.alias}/stats`, { json: true }),
          401,
          '{"message":"Password required.","status":401}',
        ],
        [
          submit(`/${locked.alias}/stats`, 'wrong', { json: true, ip: '198.51.100.40' }),
          403,
          '{"message":"Password required.","status":403}',
        ],
      ];
      for (const [index, [request, status, body]] of cases.entries()) {
        const requestId = `stats-refusal-${index}`;
        expectJsonError(await request.set('X-Request-Id', requestId), status, body, requestId);
      }
      // And a page that may be seen is no refusal at all.
      expect((await page(`/${open.alias}/stats`, { json: true })).status).toBe(200);
    });

    it('answers too many attempts as JSON with Retry-After, and the page with the same Retry-After', async () => {
      const account = await createAccount(t);
      const created = await link(account, { privacy: '2', password: 'stats secret' });
      const path = `/${created.alias}/stats`;
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expect((await submit(path, 'wrong', { ip: '198.51.100.41' })).status).toBe(403);
      }
      const json = await submit(path, 'wrong', { ip: '198.51.100.41', json: true }).set(
        'X-Request-Id',
        'locked-out',
      );
      expectJsonError(json, 429, '{"message":"Too Many Attempts.","status":429}', 'locked-out');
      const wait = Number(json.headers['retry-after']);
      expect(Number.isInteger(wait)).toBe(true);
      expect(wait).toBeGreaterThan(0);
      const html = await submit(path, 'wrong', { ip: '198.51.100.41' });
      expectPage(html, { status: 429, title: 'Too many attempts' });
      expect(Number(html.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('shows a browser the visitor pages only on the visitor routes: the API keeps its JSON', async () => {
      const account = await createAccount(t);
      const response = await t
        .http()
        .get('/api/v1/links/2147483000')
        .set('Authorization', account.auth)
        .set('Accept', 'text/html');
      expect(response.status).toBe(404);
      expect(response.text).toBe('{"message":"Resource not found.","status":404}');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('shows a browser the page of each refusal, whatever else it accepts', async () => {
      const account = await createAccount(t);
      const secret = await link(account, { privacy: '1' });
      const locked = await link(account, { privacy: '2', password: 'stats secret' });
      const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const asBrowser = (path: string) => t.http().get(path).set('Accept', accept);
      expectPage(await asBrowser(`/${unique('nothing')}/stats`), { status: 404, title: 'Link not found' });
      expectPage(await asBrowser(`/${secret.alias}/stats`), { status: 403, title: 'Private statistics' });
      expectPage(await asBrowser(`/${locked.alias}/stats`), STATS_PASSWORD_PAGE);
    });
  });
});
