import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { exportedClicks, type ExportedClick } from './support/clicks';
import { writeMmdb } from './support/mmdb';
import { createLink, IP, showLink, UA, type LinkData } from './support/visitors';

const DESTINATION = 'https://example.com/landing';
const REFERER = 'https://news.example.org/story';

/** What a visit from London with a referrer records when everything is kept. */
const TRACKED: Partial<ExportedClick> = {
  referrer: 'news.example.org',
  country: 'GB',
  city: 'London',
  continent: 'EU',
  browser: 'Safari',
  operating_system: 'iOS',
  device: 'Mobile',
  language: 'en',
};
/** The same visit counted without its referrer and city. */
const KEPT_OUT: Partial<ExportedClick> = { ...TRACKED, referrer: null, city: null };

/** Clicks in this order, each holding at least these fields. */
function clicksLike(...clicks: Partial<ExportedClick>[]): unknown[] {
  return clicks.map((click): unknown => expect.objectContaining(click));
}

/** What a visitor asks: nothing, Global Privacy Control, or Do Not Track. */
type Choice = Record<string, string>;
const NO_CHOICE: Choice = {};
const GPC: Choice = { 'Sec-GPC': '1' };
const DNT: Choice = { DNT: '1' };

describe('Privacy switches: HONOR_DO_NOT_TRACK, TRACK_REFERRER, TRACK_CITY', () => {
  /** Every app believes X-Forwarded-For (the visitor's country) and has a city database (the city). */
  let t: TestApp;
  let honorOff: TestApp;
  let noReferrer: TestApp;
  let noCity: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'privacy-city-'));

  beforeAll(async () => {
    const cities = join(dir, 'city.mmdb');
    writeMmdb(cities, { '81.2.69.0/24': { country_code: 'GB', city: 'London' } });
    const located = { TRUST_PROXY: 'true', GEOIP_CITY_DATABASE: cities };
    t = await createTestApp(located);
    honorOff = await createTestApp({ ...located, HONOR_DO_NOT_TRACK: 'false' });
    noReferrer = await createTestApp({ ...located, TRACK_REFERRER: 'false' });
    noCity = await createTestApp({ ...located, TRACK_CITY: 'false' });
  });

  afterAll(async () => {
    await noCity?.close();
    await noReferrer?.close();
    await honorOff?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function link(app: TestApp, account: TestAccount, body: Record<string, unknown> = {}): Promise<LinkData> {
    return createLink(app, account, { url: DESTINATION, ...body });
  }

  /** A visitor from London with a referrer, who asks what `choice` says. */
  function visitor(test: Test, choice: Choice): Test {
    test
      .set('User-Agent', UA.iPhoneSafari)
      .set('X-Forwarded-For', IP.gb)
      .set('Accept-Language', 'en-GB')
      .set('Referer', REFERER);
    for (const [name, value] of Object.entries(choice)) test.set(name, value);
    return test;
  }

  function visit(app: TestApp, alias: string, choice: Choice): Test {
    return visitor(app.http().get(`/${alias}`), choice);
  }

  /** Visits as each choice in turn, each redirected, and the clicks the link then has, oldest first. */
  async function recorded(
    app: TestApp,
    choices: Choice[],
  ): Promise<{ account: TestAccount; created: LinkData; clicks: ExportedClick[] }> {
    const account = await createAccount(app);
    const created = await link(app, account);
    for (const choice of choices) {
      const response = await visit(app, created.alias, choice);
      expect({ status: response.status, location: response.headers.location }).toEqual({
        status: 302,
        location: DESTINATION,
      });
    }
    return { account, created, clicks: await exportedClicks(app, account, created.id) };
  }

  describe('by default', () => {
    it('counts a visitor who sends Sec-GPC: 1 or DNT: 1 without referrer and city, and keeps them of others', async () => {
      const { account, created, clicks } = await recorded(t, [NO_CHOICE, GPC, DNT, NO_CHOICE]);
      expect(clicks).toEqual(clicksLike(TRACKED, KEPT_OUT, KEPT_OUT, TRACKED));
      expect((await showLink(t, account, created.id)).clicks).toBe(4);
      // The stats count every click: the opted-out ones under no referrer, and with no city.
      const stats = (name: string) =>
        t.http().get(`/api/v1/stats/${created.id}?name=${name}`).set('Authorization', account.auth);
      expect((await stats('referrer')).body.data).toEqual([
        { value: 'news.example.org', count: 2 },
        { value: null, count: 2 },
      ]);
      expect((await stats('city')).body.data).toEqual([{ value: 'GB:London', count: 2 }]);
      expect((await stats('country')).body.data).toEqual([{ value: 'GB:United Kingdom', count: 4 }]);
    });

    it('reads only "1" as the choice', async () => {
      const { clicks } = await recorded(t, [{ 'Sec-GPC': '0' }, { DNT: '0' }]);
      expect(clicks).toEqual(clicksLike(TRACKED, TRACKED));
    });

    it('keeps them out on a visit the routes answer: the consent form of a link with sensitive content', async () => {
      const account = await createAccount(t);
      const created = await link(t, account, { sensitive_content: '1' });
      for (const choice of [DNT, NO_CHOICE]) {
        expect((await visit(t, created.alias, choice)).status).toBe(200);
        const consent = await visitor(t.http().post(`/${created.alias}/sensitive-consent`), choice)
          .type('form')
          .send({ q: '', ref: REFERER, token: '' });
        expect({ status: consent.status, location: consent.headers.location }).toEqual({
          status: 302,
          location: DESTINATION,
        });
      }
      expect(await exportedClicks(t, account, created.id)).toEqual(clicksLike(KEPT_OUT, TRACKED));
    });

    it('still counts an opted-out visit against the clicks limit', async () => {
      const account = await createAccount(t);
      const created = await link(t, account, {
        clicks_limit: '1',
        expiration_url: 'https://example.com/expired',
      });
      expect((await visit(t, created.alias, GPC)).headers.location).toBe(DESTINATION);
      expect((await visit(t, created.alias, GPC)).headers.location).toBe('https://example.com/expired');
      expect(await exportedClicks(t, account, created.id)).toEqual(clicksLike(KEPT_OUT));
      expect((await showLink(t, account, created.id)).clicks).toBe(1);
    });

    it('still targets an opted-out visitor by country', async () => {
      const account = await createAccount(t);
      const created = await link(t, account, {
        targets_type: 'countries',
        targets: [{ key: 'GB', value: 'https://example.com/uk' }],
      });
      expect((await visit(t, created.alias, GPC)).headers.location).toBe('https://example.com/uk');
      expect(await exportedClicks(t, account, created.id)).toEqual(clicksLike(KEPT_OUT));
    });
  });

  it('keeps the referrer and city of every visitor with HONOR_DO_NOT_TRACK=false', async () => {
    const { clicks } = await recorded(honorOff, [GPC, DNT, NO_CHOICE]);
    expect(clicks).toEqual(clicksLike(TRACKED, TRACKED, TRACKED));
  });

  it('keeps no referrer with TRACK_REFERRER=false, and the city of those who did not opt out', async () => {
    const { clicks } = await recorded(noReferrer, [NO_CHOICE, GPC]);
    expect(clicks).toEqual(clicksLike({ ...TRACKED, referrer: null }, KEPT_OUT));
  });

  it('keeps no city with TRACK_CITY=false, and the referrer of those who did not opt out', async () => {
    const { clicks } = await recorded(noCity, [NO_CHOICE, GPC]);
    expect(clicks).toEqual(clicksLike({ ...TRACKED, city: null }, KEPT_OUT));
  });
});
