import { Logger } from '@nestjs/common';
import { createAccount, createTestApp, type TestApp } from './support/app';
import { clickRows, createLink, expectPage, showLink, UA } from './support/visitors';

const DESTINATION = 'https://example.com/landing';

/**
 * Limits and warnings that need an application of their own settings. Each app here is made and closed in turn:
 * Passport keeps one strategy per name for the whole process, the last app's.
 */
describe('visitor routes', () => {
  function visit(app: TestApp, path: string, address: string) {
    return app.http().get(path).set('User-Agent', UA.macSafari).set('X-Forwarded-For', address);
  }

  describe('with VISITOR_RATE_LIMIT_PER_MINUTE=5', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp({ VISITOR_RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: 'true' });
    });
    afterAll(async () => {
      await limited.close();
    });

    it('answers the 6th request of a minute from one address with the 429 page, on every visitor route', async () => {
      const account = await createAccount(limited);
      const created = await createLink(limited, account, { url: DESTINATION });
      const address = '198.51.100.20';
      const paths = [
        '/',
        `/${created.alias}`,
        `/${created.alias}/+`,
        `/${created.alias}/stats`,
        '/nothing-here',
      ];
      const statuses = [];
      for (const path of paths) statuses.push((await visit(limited, path, address)).status);
      expect(statuses).toEqual([200, 302, 200, 200, 404]);

      const refused = await visit(limited, `/${created.alias}`, address);
      expectPage(refused, { status: 429, title: 'Too many requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(await clickRows(limited, created.id)).toHaveLength(1);

      // Another address is not held back, nor is the API.
      const other = await visit(limited, `/${created.alias}`, '198.51.100.21');
      expect({ status: other.status, location: other.headers.location }).toEqual({
        status: 302,
        location: DESTINATION,
      });
      expect((await showLink(limited, account, created.id)).clicks).toBe(2);
    });

    it('counts an IPv6 client by its /64', async () => {
      const account = await createAccount(limited);
      const created = await createLink(limited, account, { url: DESTINATION });
      const statuses: number[] = [];
      for (let host = 1; host <= 6; host += 1) {
        statuses.push((await visit(limited, `/${created.alias}`, `2001:db8:9:9::${host}`)).status);
      }
      expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
      expect((await visit(limited, `/${created.alias}`, '2001:db8:9:a::1')).status).toBe(302);
    });
  });

  describe('without TRUST_PROXY', () => {
    it('logs one warning the first time a forwarded header arrives, and none with TRUST_PROXY set', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        for (const env of [{}, { TRUST_PROXY: 'loopback' }] as Record<string, string>[]) {
          const app = await createTestApp(env);
          for (let request = 0; request < 3; request += 1) {
            await visit(app, '/missing', '198.51.100.1');
            await app.http().get('/missing').set('Forwarded', 'for=198.51.100.2');
          }
          await app.close();
        }
        const warnings = warn.mock.calls.map((call) => String(call[0]));
        expect(warnings.filter((message) => message.includes('TRUST_PROXY'))).toEqual([
          expect.stringContaining('X-Forwarded-For'),
        ]);
      } finally {
        warn.mockRestore();
      }
    });
  });
});
