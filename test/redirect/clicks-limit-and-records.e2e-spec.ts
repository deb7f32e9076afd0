import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { clickRows, expectPage, IP, showLink, UA } from '../support/visitors';
import { DESTINATION, EXPIRED, expectRedirect, createListeningApp, visitClient } from './support';

/** What a visit counts: the clicks limit, exact under concurrency, and the click records it writes. */
describe('Visiting short links', () => {
  let t: TestApp;
  /** TRUST_PROXY=true: the client address (and so the country) comes from X-Forwarded-For. */
  let proxied: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
    proxied = await createTestApp({ TRUST_PROXY: 'true' });
  });

  afterAll(async () => {
    await proxied?.close();
    await t?.close();
  });

  const { get, link, expectClicks } = visitClient(() => t);

  describe('the clicks limit', () => {
    it('is exact under 200 concurrent visits to a link limited to 50', async () => {
      const account = await createAccount(t);
      const created = await link(account, { clicks_limit: '50' });
      const responses = await Promise.all(Array.from({ length: 200 }, () => get(`/${created.alias}`)));
      const outcomes = responses.map((response) => `${response.status} ${response.headers.location ?? ''}`);
      expect(outcomes.filter((outcome) => outcome === `302 ${DESTINATION}`)).toHaveLength(50);
      expect(outcomes.filter((outcome) => outcome === '410 ')).toHaveLength(150);
      for (const response of responses.filter((one) => one.status === 410)) {
        expect(response.text).toContain('<title>This link has expired</title>');
      }
      await expectClicks(account, created.id, 50);
    });

    it('answers 410 once the limit is reached, and redirects again as soon as the limit is raised', async () => {
      const account = await createAccount(t);
      const created = await link(account, { clicks_limit: '2' });
      const first = await Promise.all(Array.from({ length: 6 }, () => get(`/${created.alias}`)));
      expect(first.map((response) => response.status).sort()).toEqual([302, 302, 410, 410, 410, 410]);
      for (const response of first.filter((one) => one.status === 410)) {
        expectPage(response, EXPIRED);
      }
      const raised = await t
        .http()
        .patch(`/api/v1/links/${created.id}`)
        .set('Authorization', account.auth)
        .type('form')
        .send({ clicks_limit: '3' });
      expect(raised.status).toBe(200);
      expectRedirect(await get(`/${created.alias}`), DESTINATION);
      expectPage(await get(`/${created.alias}`), EXPIRED);
      await expectClicks(account, created.id, 3);
    });

    /** `count` calls of `task`, `workers` at a time: a steady stream rather than one burst. */
    async function stream<T>(
      count: number,
      workers: number,
      task: (index: number) => Promise<T>,
    ): Promise<T[]> {
      const results: T[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (next < count) {
            const index = next++;
            results[index] = await task(index);
          }
        }),
      );
      return results;
    }

    function updateLink(account: TestAccount, id: number, fields: Record<string, string>) {
      return t.http().put(`/api/v1/links/${id}`).set('Authorization', account.auth).type('form').send(fields);
    }

    it.each([
      ['title', (round: number) => ({ title: `Title ${round}` })],
      ['title and stats password', (round: number) => ({ title: `Title ${round}`, password: `pw${round}` })],
    ])(
      'stays exact when API updates of the %s race 200 visits: an update never writes the counters back',
      async (_fields, changes) => {
        const account = await createAccount(t);
        const created = await link(account, { clicks_limit: '50' });
        const [responses, updated] = await Promise.all([
          stream(200, 4, () => get(`/${created.alias}`)),
          stream(40, 2, (round) => updateLink(account, created.id, changes(round))),
        ]);
        expect(updated.map((response) => response.status)).toEqual(Array(40).fill(200));
        expect(responses.filter((response) => response.status === 302)).toHaveLength(50);
        expect(responses.filter((response) => response.status === 410)).toHaveLength(150);
        await expectClicks(account, created.id, 50);
      },
      // Forty slow password hashes on two shared cores.
      180_000,
    );

    it('keeps a rotation in exact order while API updates race its visits', async () => {
      const account = await createAccount(t);
      const values = ['https://a.example/', 'https://b.example/', 'https://c.example/'];
      const created = await link(account, {
        targets_type: 'rotations',
        targets: values.map((value) => ({ value })),
      });
      const [responses] = await Promise.all([
        stream(90, 1, () => get(`/${created.alias}`)),
        stream(30, 2, (round) => updateLink(account, created.id, { title: `Title ${round}` })),
      ]);
      // One visitor at a time: each is served the value after the one before.
      const served = responses.map((response) => String(response.headers.location));
      expect(served).toEqual(Array.from({ length: 90 }, (_unused, index) => values[index % 3]));
      expect((await showLink(t, account, created.id)).last_rotation).toBe(2);
      await expectClicks(account, created.id, 90);
    });
  });

  describe('click records', () => {
    it('keep the referrer host, country, city, continent, browser, OS, device and language, and no IP', async () => {
      const account = await createAccount(proxied);
      const created = await link(account, {}, proxied);
      const before = new Date();
      const response = await get(`/${created.alias}`, {
        app: proxied,
        ua: UA.iPhoneSafari,
        ip: IP.gb,
        language: 'fr-CH, fr;q=0.9',
        referer: 'https://news.example.org/story?id=1#top',
      });
      expectRedirect(response, DESTINATION);
      const rows = await clickRows(proxied, created.id);
      expect(rows).toHaveLength(1);
      const row = rows[0];
      expect(Object.keys(row).sort()).toEqual(
        [
          'browser',
          'city',
          'continent',
          'country',
          'created_at',
          'device',
          'language',
          'link_id',
          'operating_system',
          'referrer',
          'target',
        ].sort(),
      );
      expect(row).toEqual({
        link_id: created.id,
        created_at: expect.any(Date),
        referrer: 'news.example.org',
        country: 'GB',
        // No city database in tests but the stats test's: no city.
        city: null,
        continent: 'EU',
        browser: 'Safari',
        operating_system: 'iOS',
        device: 'Mobile',
        language: 'fr',
        // Where the visit was sent: the link's own url.
        target: DESTINATION,
      });
      expect(row.created_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(row.created_at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      const stored = JSON.stringify(row);
      for (const address of [IP.gb, '127.0.0.1', '::ffff:127.0.0.1']) expect(stored).not.toContain(address);
      // Nor on the link.
      const [linkRow] = await proxied.dataSource.query<object[]>('SELECT * FROM links WHERE id = $1', [
        created.id,
      ]);
      expect(JSON.stringify(linkRow)).not.toContain(IP.gb);
    });

    it('keep nulls for what the visitor did not say', async () => {
      const account = await createAccount(proxied);
      const created = await link(account, {}, proxied);
      await get(`/${created.alias}`, {
        app: proxied,
        ua: UA.linuxFirefox,
        referer: 'android-app://com.example',
      });
      await get(`/${created.alias}`, { app: proxied, ua: UA.windowsEdge, ip: IP.us, language: '*' });
      const rows = await clickRows(proxied, created.id);
      expect(rows).toMatchObject([
        {
          referrer: null,
          country: null,
          continent: null,
          browser: 'Firefox',
          operating_system: 'Linux',
          device: 'Desktop',
          language: null,
        },
        {
          referrer: null,
          country: 'US',
          continent: 'NA',
          browser: 'Edge',
          operating_system: 'Windows',
          device: 'Desktop',
          language: null,
        },
      ]);
    });
  });
});
