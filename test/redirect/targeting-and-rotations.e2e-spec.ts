import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { clickRows, IP, showLink, UA, type LinkData } from '../support/visitors';
import { DESTINATION, expectRedirect, createListeningApp, visitClient, type Visitor } from './support';

/**
 * Where a link sends each visitor: targeting by country, continent, OS, browser, device and language, and
 * rotations.
 */
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

  describe('targeting', () => {
    const rules: Record<string, [string, string][]> = {
      countries: [
        ['US', 'https://us.example/'],
        ['GB', 'https://gb.example/'],
      ],
      continents: [
        ['NA', 'https://na.example/'],
        ['EU', 'https://eu.example/'],
      ],
      operating_systems: [
        ['iOS', 'https://ios.example/'],
        ['Android', 'https://android.example/'],
        ['Windows', 'https://windows.example/'],
      ],
      browsers: [
        ['Firefox', 'https://firefox.example/'],
        ['Chrome', 'https://chrome.example/'],
      ],
      devices: [
        ['Mobile', 'https://mobile.example/'],
        ['Tablet', 'https://tablet.example/'],
        ['Desktop', 'https://desktop.example/'],
      ],
      languages: [
        ['fr', 'https://fr.example/'],
        ['de', 'https://de.example/'],
      ],
    };

    async function targeted(account: TestAccount, type: string): Promise<LinkData> {
      return link(
        account,
        { targets_type: type, targets: rules[type].map(([key, value]) => ({ key, value })) },
        proxied,
      );
    }

    it.each<[string, Visitor, string]>([
      ['countries', { ip: IP.us }, 'https://us.example/'],
      ['countries', { ip: IP.gb }, 'https://gb.example/'],
      ['countries', { ip: '10.1.2.3' }, DESTINATION],
      ['countries', { ip: '2a00:1450:4009:81f::200e' }, 'https://gb.example/'],
      ['countries', { ip: `${IP.gb}, 10.0.0.1, 8.8.4.4` }, 'https://gb.example/'],
      ['countries', {}, DESTINATION],
      ['continents', { ip: IP.us }, 'https://na.example/'],
      ['continents', { ip: IP.gb }, 'https://eu.example/'],
      ['continents', {}, DESTINATION],
      ['operating_systems', { ua: UA.iPhoneSafari }, 'https://ios.example/'],
      ['operating_systems', { ua: UA.androidChrome }, 'https://android.example/'],
      ['operating_systems', { ua: UA.windowsEdge }, 'https://windows.example/'],
      ['operating_systems', { ua: UA.linuxFirefox }, DESTINATION],
      ['operating_systems', { ua: UA.macSafari }, DESTINATION],
      ['browsers', { ua: UA.linuxFirefox }, 'https://firefox.example/'],
      ['browsers', { ua: UA.windowsChrome }, 'https://chrome.example/'],
      ['browsers', { ua: UA.androidChrome }, 'https://chrome.example/'],
      ['browsers', { ua: UA.windowsEdge }, DESTINATION],
      ['browsers', { ua: UA.macSafari }, DESTINATION],
      ['devices', { ua: UA.iPhoneSafari }, 'https://mobile.example/'],
      ['devices', { ua: UA.androidChrome }, 'https://mobile.example/'],
      ['devices', { ua: UA.iPadSafari }, 'https://tablet.example/'],
      ['devices', { ua: UA.windowsChrome }, 'https://desktop.example/'],
      ['devices', { ua: UA.samsungTv }, DESTINATION],
      ['languages', { language: 'fr-CH, fr;q=0.9, en;q=0.8' }, 'https://fr.example/'],
      ['languages', { language: 'de' }, 'https://de.example/'],
      ['languages', { language: 'es-ES,es;q=0.9,fr;q=0.8' }, DESTINATION],
      ['languages', {}, DESTINATION],
    ])('%s: %j goes to %s', async (type, visitor, location) => {
      const account = await createAccount(proxied);
      const created = await targeted(account, type);
      expectRedirect(await get(`/${created.alias}`, { ...visitor, app: proxied }), location);
      await expectClicks(account, created.id, 1, proxied);
    });

    it('keeps the visitor query on a targeted destination', async () => {
      const account = await createAccount(proxied);
      const created = await targeted(account, 'countries');
      expectRedirect(
        await get(`/${created.alias}?a=1`, { app: proxied, ip: IP.gb }),
        'https://gb.example/?a=1',
      );
    });

    it('ignores X-Forwarded-For without TRUST_PROXY: the country is unknown', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        targets_type: 'countries',
        targets: rules.countries.map(([key, value]) => ({ key, value })),
      });
      expectRedirect(await get(`/${created.alias}`, { ip: IP.us }), DESTINATION);
      expect(await clickRows(t, created.id)).toMatchObject([{ country: null, continent: null }]);
    });
  });

  describe('rotations', () => {
    it('go round the values in order, and last_rotation says where they are', async () => {
      const account = await createAccount(t);
      const values = ['https://a.example/', 'https://b.example/', 'https://c.example/'];
      const created = await link(account, {
        targets_type: 'rotations',
        targets: values.map((value) => ({ value })),
      });
      expect(created.last_rotation).toBeNull();
      const seen: [string, number | null][] = [];
      for (let visit = 0; visit < 7; visit += 1) {
        const response = await get(`/${created.alias}`);
        expect(response.status).toBe(302);
        seen.push([
          String(response.headers.location),
          (await showLink(t, account, created.id)).last_rotation,
        ]);
      }
      expect(seen).toEqual([
        [values[0], 0],
        [values[1], 1],
        [values[2], 2],
        [values[0], 0],
        [values[1], 1],
        [values[2], 2],
        [values[0], 0],
      ]);
    });
  });

  describe('rotations under concurrency', () => {
    it('serve each value equally often, however many visits arrive at once', async () => {
      const account = await createAccount(t);
      const values = ['https://a.example/', 'https://b.example/', 'https://c.example/'];
      const created = await link(account, {
        targets_type: 'rotations',
        targets: values.map((value) => ({ value })),
      });
      const responses = await Promise.all(Array.from({ length: 30 }, () => get(`/${created.alias}`)));
      const served = new Map<string, number>();
      for (const response of responses) {
        expect(response.status).toBe(302);
        const location = String(response.headers.location);
        served.set(location, (served.get(location) ?? 0) + 1);
      }
      expect(Object.fromEntries(served)).toEqual({ [values[0]]: 10, [values[1]]: 10, [values[2]]: 10 });
      expect((await showLink(t, account, created.id)).last_rotation).toBe(2);
      await expectClicks(account, created.id, 30);
    });
  });
});
