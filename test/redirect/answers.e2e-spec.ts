import { createAccount, createTestApp, type TestApp } from '../support/app';
import { UA } from '../support/visitors';
import { DESTINATION, expectRedirect, withVisitor, createListeningApp, visitClient } from './support';

/**
 * The redirect itself: its headers, the destination in the Location header, and its status with
 * REDIRECT_STATUS=301.
 */
describe('Visiting short links', () => {
  let t: TestApp;
  /** LOG_LEVEL=debug: a line for each redirect. */
  let logged: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
    logged = await createTestApp({ LOG_LEVEL: 'debug' });
  });

  afterAll(async () => {
    await logged?.close();
    await t?.close();
  });

  const { get, link, expectClicks } = visitClient(() => t);

  describe("a plain redirect's answer", () => {
    it('says its body is empty and carries no request id of its own, GET and HEAD alike', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      for (const method of ['get', 'head'] as const) {
        const response = await withVisitor(t.http()[method](`/${created.alias}`), {});
        expect([response.status, response.headers.location]).toEqual([302, DESTINATION]);
        expect(response.headers['cache-control']).toBe('private, no-store');
        expect(response.headers['content-length']).toBe('0');
        expect(response.headers['transfer-encoding']).toBeUndefined();
        expect(response.headers['x-request-id']).toBeUndefined();
      }
      await expectClicks(account, created.id, 1);
    });

    it("echoes the caller's sane X-Request-Id, and drops an unsafe one", async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const traced = await get(`/${created.alias}`).set('X-Request-Id', 'proxy-trace_42.a');
      expectRedirect(traced, DESTINATION);
      expect(traced.headers['x-request-id']).toBe('proxy-trace_42.a');
      const unsafe = await get(`/${created.alias}`).set('X-Request-Id', 'id with spaces');
      expectRedirect(unsafe, DESTINATION);
      expect(unsafe.headers['x-request-id']).toBeUndefined();
    });

    it('carries a new request id when redirects are logged (LOG_LEVEL=debug)', async () => {
      const account = await createAccount(logged);
      const created = await link(account, {}, logged);
      const response = await get(`/${created.alias}`, { app: logged });
      expectRedirect(response, DESTINATION);
      expect(response.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    });
  });

  describe('the destination in the Location header', () => {
    it.each([
      ['https://example.com/caf\u00e9?q=na\u00efve', 'https://example.com/caf%C3%A9?q=na%C3%AFve'],
      ['https://example.com/\u65e5\u672c', 'https://example.com/%E6%97%A5%E6%9C%AC'],
      ['https://b\u00fccher.example/', 'https://xn--bcher-kva.example/'],
    ])('is sent as ASCII: %s', async (url, location) => {
      const account = await createAccount(t);
      const created = await link(account, { url });
      expectRedirect(await get(`/${created.alias}`), location);
      await expectClicks(account, created.id, 1);
    });
  });

  describe('with REDIRECT_STATUS=301', () => {
    let permanent: TestApp;

    beforeAll(async () => {
      permanent = await createTestApp({ REDIRECT_STATUS: '301' });
    });

    afterAll(async () => {
      await permanent?.close();
    });

    it('redirects visitors and bots with 301, and still sends expired links and unknown aliases with 302', async () => {
      const account = await createAccount(permanent);
      const created = await link(account, { url: 'https://example.com/landing?a=1' }, permanent);
      const expired = await link(
        account,
        { clicks_limit: '1', expiration_url: 'https://example.com/expired' },
        permanent,
      );
      expectRedirect(
        await get(`/${created.alias}?b=2`, { app: permanent }),
        'https://example.com/landing?a=1&b=2',
        301,
      );
      expectRedirect(
        await get(`/${created.alias}`, { app: permanent, ua: UA.googlebot }),
        'https://example.com/landing?a=1',
        301,
      );
      expectRedirect(await get(`/${expired.alias}`, { app: permanent }), DESTINATION, 301);
      expectRedirect(await get(`/${expired.alias}`, { app: permanent }), 'https://example.com/expired', 302);
      await expectClicks(account, created.id, 1, permanent);
    });
  });
});
