import type { Response, Test } from 'supertest';
import { hashSecret, verifySecret } from '../src/common/secret-hash';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { rawRequest } from './support/api';
import {
  clickRows,
  createLink,
  expectPage,
  formAction,
  hiddenField,
  IP,
  showLink,
  UA,
  unique,
  type LinkData,
  type PageResponse,
} from './support/visitors';

/** The host of APP_URL (unset in tests): the default domain, and the one an unknown Host falls back to. */
const DEFAULT_URL = 'http://localhost:3000';
const DESTINATION = 'https://example.com/landing';
const NOT_FOUND = { status: 404, title: 'Link not found' };
const EXPIRED = { status: 410, title: 'This link has expired' };
const PASSWORD_PAGE = { status: 200, title: 'Password required', heading: 'This link is protected' };
const CONSENT_PAGE = { status: 200, title: 'Sensitive content', heading: 'Sensitive content ahead' };
const WRONG_PASSWORD =
  '<p class="error" id="password-error" role="alert">That password is not right. Try again.</p>';
const PASSWORD_FIRST = '<p class="error" id="password-error" role="alert">Enter the password first.</p>';

interface Visitor {
  /** null sends no User-Agent at all; a desktop Safari by default. */
  ua?: string | null;
  host?: string;
  /** Sent as X-Forwarded-For. */
  ip?: string;
  language?: string;
  referer?: string;
  app?: TestApp;
}

describe('Visiting short links', () => {
  /** No TRUST_PROXY: X-Forwarded-For is ignored. Listening, so that many requests can share it. */
  let t: TestApp;
  /** TRUST_PROXY=true: the client address (and so the country) comes from X-Forwarded-For. */
  let proxied: TestApp;
  /** LOG_LEVEL=debug: a line for each redirect. */
  let logged: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    proxied = await createTestApp({ TRUST_PROXY: 'true' });
    logged = await createTestApp({ LOG_LEVEL: 'debug' });
  });

  afterAll(async () => {
    await logged?.close();
    await proxied?.close();
    await t?.close();
  });

  function withVisitor(test: Test, visitor: Visitor): Test {
    if (visitor.ua !== null) test.set('User-Agent', visitor.ua ?? UA.macSafari);
    if (visitor.host !== undefined) test.set('Host', visitor.host);
    if (visitor.ip !== undefined) test.set('X-Forwarded-For', visitor.ip);
    if (visitor.language !== undefined) test.set('Accept-Language', visitor.language);
    if (visitor.referer !== undefined) test.set('Referer', visitor.referer);
    return test;
  }

  function get(path: string, visitor: Visitor = {}): Test {
    return withVisitor((visitor.app ?? t).http().get(path), visitor);
  }

  function post(path: string, form: Record<string, string>, visitor: Visitor = {}): Test {
    return withVisitor((visitor.app ?? t).http().post(path), visitor)
      .type('form')
      .send(form);
  }

  /** A GET whose path is sent exactly as given (supertest would percent-encode quotes and angle brackets). */
  async function rawGet(path: string): Promise<PageResponse> {
    const { status, headers, body } = await rawRequest(t, path, { headers: { 'User-Agent': UA.macSafari } });
    return { status, headers, text: body.toString('utf8') };
  }

  function link(account: TestAccount, body: Record<string, unknown>, app: TestApp = t): Promise<LinkData> {
    return createLink(app, account, { url: DESTINATION, ...body });
  }

  function expectRedirect(response: Response, location: string, status = 302): void {
    expect({ status: response.status, location: response.headers.location }).toEqual({
      status,
      location,
    });
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.text).toBe('');
  }

  /** The link's counter (through the API) and its click rows agree on `count`. */
  async function expectClicks(account: TestAccount, linkId: number, count: number, app: TestApp = t) {
    expect((await showLink(app, account, linkId)).clicks).toBe(count);
    expect(await clickRows(app, linkId)).toHaveLength(count);
  }

  async function createDomain(account: TestAccount, fields: Record<string, string> = {}) {
    const response = await t
      .http()
      .post('/api/v1/domains')
      .set('Authorization', account.auth)
      .type('form')
      .send({ name: `${unique('host')}.example`, ...fields });
    expect(response.status).toBe(201);
    return response.body.data as { id: number; name: string; url: string };
  }

  async function createPixel(account: TestAccount, type: string, value: string): Promise<number> {
    const response = await t
      .http()
      .post('/api/v1/pixels')
      .set('Authorization', account.auth)
      .type('form')
      .send({ name: unique('pixel'), type, value });
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  describe('an unknown alias', () => {
    it('gets a 404 page', async () => {
      const html = expectPage(await get(`/${unique('nothing')}`), NOT_FOUND);
      expect(html).toContain(
        '<p>There is no link at this address. Check the address for typing mistakes, or ask whoever shared it for the right one.</p>',
      );
    });

    it('gets the 404 page when the path cannot be an alias, without echoing it', async () => {
      const html = expectPage(await get('/%3Cscript%3Ealert(1)%3C%2Fscript%3E'), NOT_FOUND);
      expect(html).not.toContain('alert(1)');
    });

    it('gets the 404 page for any other address a browser opens, while API paths keep the JSON 404', async () => {
      const html = expectPage(await get(`/${unique('a')}/b/c`), NOT_FOUND);
      expect(html).toContain('<h1>Link not found</h1>');
      const api = await get('/api/v1/nothing-here');
      expect(api.status).toBe(404);
      expect(api.body).toEqual({ message: 'Resource not found.', status: 404 });
    });

    it("goes to the domain's not_found_page when it has one", async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { not_found_page: 'https://example.com/missing' });
      expectRedirect(
        await get(`/${unique('nothing')}`, { host: domain.name }),
        'https://example.com/missing',
      );
    });

    it('gets the 404 page on a domain without a not_found_page', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account);
      expectPage(await get(`/${unique('nothing')}`, { host: domain.name }), NOT_FOUND);
    });

    it("of the default domain is not looked up on another domain, nor another domain's on the default", async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { not_found_page: 'https://example.com/missing' });
      const own = await link(account, { domain_id: domain.id });
      const onDefault = await link(account, {});
      expectPage(await get(`/${own.alias}`), NOT_FOUND);
      expectRedirect(await get(`/${onDefault.alias}`, { host: domain.name }), 'https://example.com/missing');
      expectRedirect(await get(`/${own.alias}`, { host: domain.name }), DESTINATION);
    });
  });

  describe('a disabled link', () => {
    it('gets the 404 page, even with an expiration_url, and is not counted', async () => {
      const account = await createAccount(t);
      const created = await link(account, { disabled: '1', expiration_url: 'https://example.com/expired' });
      expectPage(await get(`/${created.alias}`), NOT_FOUND);
      await expectClicks(account, created.id, 0);
    });
  });

  describe('an expired link', () => {
    const past = { active_period_start_at: '2020-01-01 00:00', active_period_end_at: '2020-01-02 00:00' };
    const future = { active_period_start_at: '2098-01-01 00:00', active_period_end_at: '2099-01-01 00:00' };

    it.each([
      ['its active period has ended', past],
      ['its active period has not started', future],
    ])('gets the 410 page when %s', async (_case, period) => {
      const account = await createAccount(t);
      const created = await link(account, period);
      const html = expectPage(await get(`/${created.alias}`), EXPIRED);
      expect(html).toContain(
        '<p>It has reached the end of its active period or its limit of visits, and no longer leads anywhere.</p>',
      );
      // What the visitor can do next.
      expect(html).toContain('<p>Ask whoever shared it for a link that still works.</p>');
      await expectClicks(account, created.id, 0);
    });

    it.each([
      ['its active period has ended', past],
      ['its active period has not started', future],
    ])('goes to its expiration_url when %s', async (_case, period) => {
      const account = await createAccount(t);
      const created = await link(account, { ...period, expiration_url: 'https://example.com/expired' });
      expectRedirect(await get(`/${created.alias}?a=1`), 'https://example.com/expired');
      await expectClicks(account, created.id, 0);
    });

    it('gets the 410 page once its clicks limit is reached, and its expiration_url when it has one', async () => {
      const account = await createAccount(t);
      const plain = await link(account, { clicks_limit: '2' });
      const withUrl = await link(account, {
        clicks_limit: '1',
        expiration_url: 'https://example.com/expired',
      });
      expectRedirect(await get(`/${plain.alias}`), DESTINATION);
      expectRedirect(await get(`/${plain.alias}`), DESTINATION);
      expectPage(await get(`/${plain.alias}`), EXPIRED);
      expectRedirect(await get(`/${withUrl.alias}`), DESTINATION);
      expectRedirect(await get(`/${withUrl.alias}`), 'https://example.com/expired');
      await expectClicks(account, plain.id, 2);
      await expectClicks(account, withUrl.id, 1);
    });

    it('is active inside its period', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        active_period_start_at: '2020-01-01 00:00',
        active_period_end_at: '2099-01-01 00:00',
      });
      expectRedirect(await get(`/${created.alias}`), DESTINATION);
      await expectClicks(account, created.id, 1);
    });

    it('treats a clicks_limit of 0 in the database as no limit, as the API and the status do', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      await t.dataSource.query('UPDATE links SET clicks_limit = 0 WHERE id = $1', [created.id]);
      expectRedirect(await get(`/${created.alias}`), DESTINATION);
      await expectClicks(account, created.id, 1);
    });
  });

  describe('the forms of a link nobody may visit', () => {
    it('answer as a visit would: 404 for unknown or disabled, 410 or expiration_url for expired', async () => {
      const account = await createAccount(t);
      const disabled = await link(account, {
        disabled: '1',
        redirect_password: 'pw',
        sensitive_content: '1',
      });
      const expired = await link(account, {
        clicks_limit: '1',
        redirect_password: 'pw',
        sensitive_content: '1',
      });
      const redirected = await link(account, {
        clicks_limit: '1',
        redirect_password: 'pw',
        expiration_url: 'https://example.com/expired',
      });
      await t.dataSource.query('UPDATE link_counters SET clicks = 1 WHERE link_id IN ($1, $2)', [
        expired.id,
        redirected.id,
      ]);
      for (const form of ['password', 'sensitive-consent']) {
        expectPage(await post(`/${unique('nothing')}/${form}`, { password: 'pw' }), NOT_FOUND);
        expectPage(await post(`/${disabled.alias}/${form}`, { password: 'pw' }), NOT_FOUND);
        expectPage(await post(`/${expired.alias}/${form}`, { password: 'pw' }), EXPIRED);
        expectRedirect(
          await post(`/${redirected.alias}/${form}`, { password: 'pw' }),
          'https://example.com/expired',
        );
      }
      expect((await showLink(t, account, expired.id)).clicks).toBe(1);
      expect(await clickRows(t, expired.id)).toHaveLength(0);
    });

    it('answer 410 when the clicks limit is reached between the password form and its answer', async () => {
      const account = await createAccount(t);
      const created = await link(account, { clicks_limit: '1', redirect_password: 'pw' });
      expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      expectRedirect(await post(`/${created.alias}/password`, { password: 'pw' }), DESTINATION);
      expectPage(await post(`/${created.alias}/password`, { password: 'pw' }), EXPIRED);
      await expectClicks(account, created.id, 1);
    });
  });

  describe('a link with a redirect password', () => {
    it('shows a password form posting to /{alias}/password, without counting', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'open sesame' });
      const html = expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      expect(formAction(html)).toBe(`/${created.alias}/password`);
      expect(html).toContain('<input id="password" name="password" type="password"');
      expect(html).toContain('<label for="password">Password</label>');
      expect(hiddenField(html, 'q')).toBe('');
      expect(html).not.toContain('role="alert"');
      expect(html).not.toContain(DESTINATION);
      await expectClicks(account, created.id, 0);
    });

    it('shows the form again with 403 for a wrong or missing password', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'open sesame' });
      const forms: Record<string, string>[] = [{ password: 'Open Sesame' }, { password: '' }, {}];
      for (const form of forms) {
        const html = expectPage(await post(`/${created.alias}/password`, form), {
          ...PASSWORD_PAGE,
          status: 403,
        });
        expect(html).toContain(WRONG_PASSWORD);
        expect(formAction(html)).toBe(`/${created.alias}/password`);
      }
      await expectClicks(account, created.id, 0);
    });

    it('redirects and counts the click for the right password', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'open sesame' });
      expectRedirect(await post(`/${created.alias}/password`, { password: 'open sesame' }), DESTINATION);
      await expectClicks(account, created.id, 1);
    });

    it("keeps the visitor's query through the form", async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        url: 'https://example.com/landing?a=1',
        redirect_password: 'pw',
      });
      const html = expectPage(await get(`/${created.alias}?b=2&a=3`), PASSWORD_PAGE);
      expect(hiddenField(html, 'q')).toBe('b=2&amp;a=3');
      const wrong = expectPage(await post(`/${created.alias}/password`, { q: 'b=2&a=3', password: 'x' }), {
        ...PASSWORD_PAGE,
        status: 403,
      });
      expect(hiddenField(wrong, 'q')).toBe('b=2&amp;a=3');
      expectRedirect(
        await post(`/${created.alias}/password`, { q: 'b=2&a=3', password: 'pw' }),
        'https://example.com/landing?a=3&b=2',
      );
    });

    it('shows the form again when its address is opened with GET (a reload from the address bar)', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw', sensitive_content: '1' });
      for (const form of ['password', 'sensitive-consent']) {
        const html = expectPage(await get(`/${created.alias}/${form}?b=2`), PASSWORD_PAGE);
        expect(formAction(html)).toBe(`/${created.alias}/password`);
        expect(hiddenField(html, 'q')).toBe('b=2');
      }
      const sensitive = await link(account, { sensitive_content: '1' });
      expectPage(await get(`/${sensitive.alias}/sensitive-consent`), CONSENT_PAGE);
      expectPage(await get(`/${unique('nothing')}/password`), NOT_FOUND);
      await expectClicks(account, created.id, 0);
    });

    it('shows bots the password form too, never the destination', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' });
      const html = expectPage(await get(`/${created.alias}`, { ua: UA.googlebot }), PASSWORD_PAGE);
      expect(html).not.toContain(DESTINATION);
    });

    it('answers the 6th failed attempt of a visitor with 429 and Retry-After, even with the right password', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' }, proxied);
      const visitor = { app: proxied, ip: '203.0.113.7' };
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expect((await post(`/${created.alias}/password`, { password: 'wrong' }, visitor)).status).toBe(403);
      }
      for (const password of ['wrong', 'pw']) {
        const response = await post(`/${created.alias}/password`, { password }, visitor);
        const html = expectPage(response, { status: 429, title: 'Too many attempts' });
        const retryAfter = Number(response.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(15 * 60 - 30);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
        expect(html).toContain('<p>A wrong password was entered too many times from this network.</p>');
        expect(html).toContain(
          '<p>Wait 15 minutes before you try again. If you do not know the password, ask whoever shared the link.</p>',
        );
      }
      // Another visitor is not locked out, and the lock is per link.
      const other = await post(
        `/${created.alias}/password`,
        { password: 'wrong' },
        { ...visitor, ip: IP.gb },
      );
      expectPage(other, { ...PASSWORD_PAGE, status: 403 });
      expectRedirect(
        await post(`/${created.alias}/password`, { password: 'pw' }, { ...visitor, ip: IP.us }),
        DESTINATION,
      );
      const second = await link(account, { redirect_password: 'pw' }, proxied);
      expect((await post(`/${second.alias}/password`, { password: 'wrong' }, visitor)).status).toBe(403);
      await expectClicks(account, created.id, 1, proxied);
    });

    it('allows no more than 5 guesses when a visitor sends many at once', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' }, proxied);
      const visitor = { app: proxied, ip: '203.0.113.9' };
      const guesses = Array.from({ length: 20 }, (_, index) => `guess-${index}`);
      const responses = await Promise.all(
        guesses.map((password) => post(`/${created.alias}/password`, { password }, visitor)),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([...Array<number>(5).fill(403), ...Array<number>(15).fill(429)]);
    });

    it('ignores X-Forwarded-For without TRUST_PROXY: a new header does not get a locked-out visitor through', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' });
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const response = await post(
          `/${created.alias}/password`,
          { password: 'wrong' },
          { ip: `198.51.100.${attempt}` },
        );
        expect(response.status).toBe(403);
      }
      const response = await post(`/${created.alias}/password`, { password: 'pw' }, { ip: '198.51.100.99' });
      expectPage(response, { status: 429, title: 'Too many attempts' });
      await expectClicks(account, created.id, 0);
    });

    it('counts an IPv6 visitor by its /64: moving to another address of the network earns no more guesses', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' }, proxied);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const visitor = { app: proxied, ip: `2001:db8:5:5::${attempt}` };
        expect((await post(`/${created.alias}/password`, { password: 'wrong' }, visitor)).status).toBe(403);
      }
      const moved = { app: proxied, ip: '2001:db8:5:5:ffff:ffff:ffff:ffff' };
      expectPage(await post(`/${created.alias}/password`, { password: 'pw' }, moved), {
        status: 429,
        title: 'Too many attempts',
      });
      const neighbour = { app: proxied, ip: '2001:db8:5:6::1' };
      expect((await post(`/${created.alias}/password`, { password: 'wrong' }, neighbour)).status).toBe(403);
    });

    it('counts a right password as an attempt too: it earns a token, not more guesses', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' }, proxied);
      const visitor = { app: proxied, ip: '203.0.113.8' };
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        expect((await post(`/${created.alias}/password`, { password: 'wrong' }, visitor)).status).toBe(403);
      }
      expectRedirect(await post(`/${created.alias}/password`, { password: 'pw' }, visitor), DESTINATION);
      expect((await post(`/${created.alias}/password`, { password: 'wrong' }, visitor)).status).toBe(429);
    });
  });

  describe('a link with sensitive content', () => {
    it('shows a consent page posting to /{alias}/sensitive-consent, without counting', async () => {
      const account = await createAccount(t);
      const created = await link(account, { sensitive_content: '1' });
      const html = expectPage(await get(`/${created.alias}`), CONSENT_PAGE);
      expect(formAction(html)).toBe(`/${created.alias}/sensitive-consent`);
      expect(html).toContain('<button type="submit">I understand, continue</button>');
      expect(hiddenField(html, 'token')).toBe('');
      expect(html).not.toContain(DESTINATION);
      await expectClicks(account, created.id, 0);
    });

    it("redirects and counts on consent, keeping the visitor's query", async () => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/landing?a=1', sensitive_content: '1' });
      const html = expectPage(await get(`/${created.alias}?b=2&a=3`), CONSENT_PAGE);
      expect(hiddenField(html, 'q')).toBe('b=2&amp;a=3');
      expectRedirect(
        await post(`/${created.alias}/sensitive-consent`, { q: 'b=2&a=3', token: '' }),
        'https://example.com/landing?a=3&b=2',
      );
      await expectClicks(account, created.id, 1);
    });
  });

  describe('a link with a redirect password and sensitive content', () => {
    async function passwordAndConsent(account: TestAccount) {
      return link(account, {
        url: 'https://example.com/landing?a=1',
        redirect_password: 'pw',
        sensitive_content: '1',
      });
    }

    it('shows the password form first, then the consent page with a token', async () => {
      const account = await createAccount(t);
      const created = await passwordAndConsent(account);
      expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      const html = expectPage(
        await post(`/${created.alias}/password`, { q: 'b=2', password: 'pw' }),
        CONSENT_PAGE,
      );
      expect(formAction(html)).toBe(`/${created.alias}/sensitive-consent`);
      expect(hiddenField(html, 'q')).toBe('b=2');
      expect(hiddenField(html, 'token')).toMatch(/^\d{13}\.[A-Za-z0-9_-]{43}$/);
      await expectClicks(account, created.id, 0);
    });

    it('carries the referrer through both forms and records its host', async () => {
      const account = await createAccount(t);
      const created = await passwordAndConsent(account);
      const first = expectPage(
        await get(`/${created.alias}`, { referer: 'https://news.example.org/story?id=7' }),
        PASSWORD_PAGE,
      );
      const referrer = hiddenField(first, 'ref')!;
      expect(referrer).toBe('https://news.example.org/story?id=7');
      const consent = expectPage(
        await post(`/${created.alias}/password`, { password: 'pw', ref: referrer }),
        CONSENT_PAGE,
      );
      expect(hiddenField(consent, 'ref')).toBe(referrer);
      const token = hiddenField(consent, 'token')!;
      expectRedirect(
        await post(`/${created.alias}/sensitive-consent`, { token, ref: referrer }),
        'https://example.com/landing?a=1',
      );
      expect(await clickRows(t, created.id)).toMatchObject([{ referrer: 'news.example.org' }]);
    });

    it('refuses consent without the token, or with a forged one, with the password form', async () => {
      const account = await createAccount(t);
      const created = await passwordAndConsent(account);
      const other = await passwordAndConsent(account);
      const consent = expectPage(await post(`/${other.alias}/password`, { password: 'pw' }), CONSENT_PAGE);
      const otherToken = hiddenField(consent, 'token')!;
      const forged: Record<string, string>[] = [
        {},
        { token: '' },
        { token: `${Date.now() + 60_000}.${'A'.repeat(43)}` },
        { token: 'not a token' },
        // A real token, of another link with the same password.
        { token: otherToken },
      ];
      for (const form of forged) {
        const response = await post(`/${created.alias}/sensitive-consent`, { q: 'b=2', ...form });
        const html = expectPage(response, { ...PASSWORD_PAGE, status: 403 });
        expect(html).toContain(PASSWORD_FIRST);
        expect(formAction(html)).toBe(`/${created.alias}/password`);
        expect(hiddenField(html, 'q')).toBe('b=2');
      }
      await expectClicks(account, created.id, 0);
    });

    it("redirects and counts with the real token, keeping the visitor's query", async () => {
      const account = await createAccount(t);
      const created = await passwordAndConsent(account);
      const html = expectPage(
        await post(`/${created.alias}/password`, { q: 'b=2&a=3', password: 'pw' }),
        CONSENT_PAGE,
      );
      const token = hiddenField(html, 'token')!;
      expectRedirect(
        await post(`/${created.alias}/sensitive-consent`, { q: 'b=2&a=3', token }),
        'https://example.com/landing?a=3&b=2',
      );
      await expectClicks(account, created.id, 1);
    });

    it('upgrades a hash made with earlier scrypt parameters on the right password, the token still good', async () => {
      const account = await createAccount(t);
      const created = await passwordAndConsent(account);
      const earlier = await hashSecret('pw', { N: 16384, r: 8, p: 1 });
      await t.dataSource.query('UPDATE links SET redirect_password_hash = $1 WHERE id = $2', [
        earlier,
        created.id,
      ]);
      const storedHash = async () => {
        const rows = await t.dataSource.query<{ redirect_password_hash: string }[]>(
          'SELECT redirect_password_hash FROM links WHERE id = $1',
          [created.id],
        );
        return rows[0].redirect_password_hash;
      };

      expectPage(await post(`/${created.alias}/password`, { password: 'wrong' }), {
        ...PASSWORD_PAGE,
        status: 403,
      });
      expect(await storedHash()).toBe(earlier);
      const html = expectPage(await post(`/${created.alias}/password`, { password: 'pw' }), CONSENT_PAGE);
      const upgraded = await storedHash();
      expect(upgraded).toMatch(/^scrypt\$16384\$8\$5\$/);
      await expect(verifySecret('pw', upgraded)).resolves.toBe(true);
      expectRedirect(
        await post(`/${created.alias}/sensitive-consent`, { token: hiddenField(html, 'token')! }),
        created.url,
      );
      await expectClicks(account, created.id, 1);
    });

    it('refuses a token issued before the password changed', async () => {
      const account = await createAccount(t);
      const created = await passwordAndConsent(account);
      const html = expectPage(await post(`/${created.alias}/password`, { password: 'pw' }), CONSENT_PAGE);
      const token = hiddenField(html, 'token')!;
      const update = await t
        .http()
        .put(`/api/v1/links/${created.id}`)
        .set('Authorization', account.auth)
        .type('form')
        .send({ redirect_password: 'new password' });
      expect(update.status).toBe(200);
      expectPage(await post(`/${created.alias}/sensitive-consent`, { token }), {
        ...PASSWORD_PAGE,
        status: 403,
      });
      await expectClicks(account, created.id, 0);
    });
  });

  describe('a link with pixels', () => {
    it('sends the visitor through a page that loads the pixel and refreshes to the destination', async () => {
      const account = await createAccount(t);
      const pixel = await createPixel(account, 'facebook', '123456789012345');
      const created = await link(account, { url: 'https://example.com/landing?a=1', pixel_ids: [pixel] });
      const response = await get(`/${created.alias}?b=2&a=3`);
      const html = expectPage(response, { status: 200, title: 'Redirecting', heading: 'Redirecting…' });
      const destination = 'https://example.com/landing?a=3&amp;b=2';
      // The service's script forwards once the pixels have loaded; without scripts, an immediate refresh does.
      expect(html).toContain(
        `<noscript><meta http-equiv="refresh" content="0; url=${destination}" /></noscript>`,
      );
      expect(html).toContain(`<script src="/assets/pixels.js" data-forward="${destination}"></script>`);
      expect(html).toContain(`<a class="url" href="${destination}">${destination}</a>`);
      expect(html).toContain(
        '<noscript><img src="https://www.facebook.com/tr?id=123456789012345&amp;ev=PageView&amp;noscript=1" width="1" height="1" alt="" /></noscript>',
      );
      expect(html).toContain(
        '<script src="/assets/pixels.js" data-pixels="[{&quot;type&quot;:&quot;facebook&quot;,&quot;value&quot;:&quot;123456789012345&quot;}]"></script>',
      );
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self' https:;");
      expect(policy).toContain("script-src 'self' https://connect.facebook.net;");
      expect(policy).toContain('connect-src https:;');
      // The service's own two: the pixel starter and the forwarder.
      expect(html.match(/<script/g)).toHaveLength(2);
      await expectClicks(account, created.id, 1);
    });

    it('loads every pixel as phpShort writes it through the service script, nothing inline', async () => {
      const account = await createAccount(t);
      const analytics = await createPixel(account, 'google-analytics', 'G-ABC123DEF4');
      const tagManager = await createPixel(account, 'google-tag-manager', 'GTM-ABC1234');
      const ads = await createPixel(account, 'google-ads', '123456789');
      const adroll = await createPixel(account, 'adroll', 'ADV123-PIX456');
      const created = await link(account, { pixel_ids: [analytics, tagManager, ads, adroll] });
      const response = await get(`/${created.alias}`);
      const html = expectPage(response, { status: 200, title: 'Redirecting', heading: 'Redirecting…' });
      const listed = /<script src="\/assets\/pixels\.js" data-pixels="([^"]*)"><\/script>/.exec(html);
      expect(JSON.parse(listed![1].replace(/&quot;/g, '"'))).toEqual([
        { type: 'google-analytics', value: 'G-ABC123DEF4' },
        { type: 'google-tag-manager', value: 'GTM-ABC1234' },
        { type: 'google-ads', value: '123456789' },
        { type: 'adroll', value: 'ADV123-PIX456' },
      ]);
      expect(html).toContain(
        '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC1234" width="0" height="0" title="Google Tag Manager" hidden></iframe></noscript>',
      );
      // The service's own two: the pixel starter and the forwarder.
      expect(html.match(/<script/g)).toHaveLength(2);
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self' https://www.googletagmanager.com https://s.adroll.com;");
      expect(html).toContain(
        '<script src="/assets/pixels.js" data-forward="https://example.com/landing"></script>',
      );
      expect(policy).toContain('frame-src https://www.googletagmanager.com;');
      const script = await t.http().get('/assets/pixels.js');
      expect(script.status).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      await expectClicks(account, created.id, 1);
    });

    it('redirects bots straight to the destination, uncounted', async () => {
      const account = await createAccount(t);
      const pixel = await createPixel(account, 'facebook', '123456789012345');
      const created = await link(account, { pixel_ids: [pixel] });
      expectRedirect(await get(`/${created.alias}`, { ua: UA.facebookPreview }), DESTINATION);
      await expectClicks(account, created.id, 0);
    });
  });

  describe('bots and link previews', () => {
    it.each([
      ['Googlebot', UA.googlebot],
      ['Slackbot', UA.slackbot],
      ['facebookexternalhit', UA.facebookPreview],
      ['Twitterbot', UA.twitterPreview],
      ['WhatsApp', UA.whatsAppPreview],
      ['Discordbot', UA.discordPreview],
      ['LinkedInBot', UA.linkedInPreview],
      ['curl', UA.curl],
      ['no user agent', null],
    ])('redirects %s to the destination without counting it', async (_name, ua) => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/landing?a=1' });
      expectRedirect(await get(`/${created.alias}?b=2`, { ua }), 'https://example.com/landing?a=1&b=2');
      await expectClicks(account, created.id, 0);
    });

    it('answers a HEAD request with the redirect, without counting it', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const response = await withVisitor(t.http().head(`/${created.alias}`), {});
      expect({ status: response.status, location: response.headers.location }).toEqual({
        status: 302,
        location: DESTINATION,
      });
      await expectClicks(account, created.id, 0);
    });

    it("counts a person in an app's own browser", async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      expectRedirect(await get(`/${created.alias}`, { ua: UA.facebookInApp }), DESTINATION);
      await expectClicks(account, created.id, 1);
      expect(await clickRows(t, created.id)).toMatchObject([{ operating_system: 'iOS', device: 'Mobile' }]);
    });

    it('does not move a rotation on', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        targets_type: 'rotations',
        targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
      });
      expectRedirect(await get(`/${created.alias}`, { ua: UA.googlebot }), DESTINATION);
      expect((await showLink(t, account, created.id)).last_rotation).toBeNull();
      expectRedirect(await get(`/${created.alias}`), 'https://a.example/');
    });
  });

  describe("the visitor's query", () => {
    it.each([
      [
        'nothing added without a query',
        'https://example.com/landing?a=1',
        '',
        'https://example.com/landing?a=1',
      ],
      [
        'the visitor wins, destination order kept',
        'https://example.com/landing?a=1',
        '?b=2&a=3',
        'https://example.com/landing?a=3&b=2',
      ],
      ['added to a URL without one', 'https://example.com', '?b=2', 'https://example.com/?b=2'],
      [
        'repeated parameters replace together',
        'https://example.com/?tag=a&z=1&tag=b',
        '?tag=x&tag=y',
        'https://example.com/?tag=x&tag=y&z=1',
      ],
      ['before the fragment', 'https://example.com/p#top', '?a=1', 'https://example.com/p?a=1#top'],
      [
        "the destination's own encoding kept",
        'https://example.com/p?next=https://other.example/x&q=a%20b',
        '?utm_source=news',
        'https://example.com/p?next=https://other.example/x&q=a%20b&utm_source=news',
      ],
      [
        "the visitor's own encoding kept",
        'https://example.com/p',
        '?q=a%20b&r=%C3%A9&s=c+d',
        'https://example.com/p?q=a%20b&r=%C3%A9&s=c+d',
      ],
      [
        'names compared decoded',
        'https://example.com/p?a%5B%5D=1&b=2',
        '?a[]=3',
        'https://example.com/p?a[]=3&b=2',
      ],
      [
        'a bare name counts as a parameter',
        'https://example.com/p?flag&b=2',
        '?flag=on',
        'https://example.com/p?flag=on&b=2',
      ],
    ])('is merged into the destination: %s', async (_case, url, query, location) => {
      const account = await createAccount(t);
      const created = await link(account, { url });
      expectRedirect(await get(`/${created.alias}${query}`), location);
    });
  });

  describe('the cost of a visit', () => {
    const parameters = (count: number) =>
      Array.from({ length: count }, (_unused, index) => `p${index}=1`).join('&');

    it('merges a query of 100 parameters', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const response = await get(`/${created.alias}?${parameters(100)}`);
      expectRedirect(response, `${DESTINATION}?${parameters(100)}`);
      await expectClicks(account, created.id, 1);
    });

    it.each([
      ['5,200 short parameters', 'a&'.repeat(5200)],
      ['101 parameters', parameters(101)],
      ['4 KB in one parameter', `q=${'x'.repeat(4095)}`],
    ])('answers a query of %s with the 414 page, uncounted', async (_label, query) => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const html = expectPage(await get(`/${created.alias}?${query}`), {
        status: 414,
        title: 'Address too long',
      });
      expect(html).toContain('more query parameters than a short link passes on');
      await expectClicks(account, created.id, 0);
    });

    it('drops a query carried by a form that is longer than a visit carries', async () => {
      const account = await createAccount(t);
      const created = await link(account, { sensitive_content: '1' });
      const response = await post(`/${created.alias}/sensitive-consent`, { q: parameters(101) });
      expectRedirect(response, DESTINATION);
    });

    it('is off with VISITOR_RATE_LIMIT_PER_MINUTE=0', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const responses = await Promise.all(Array.from({ length: 40 }, () => get(`/${created.alias}/+`)));
      expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
    });
  });

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

  describe('the preview, /{alias}/+', () => {
    it('shows the short URL, title, destination and status without counting', async () => {
      const account = await createAccount(t);
      const created = await link(account, { title: 'Landing page' });
      const html = expectPage(await get(`/${created.alias}/+`), {
        status: 200,
        title: `Preview of ${created.alias}`,
        heading: 'Link preview',
      });
      expect(html).toContain(
        `<dt>Short link</dt><dd><a class="url" href="/${created.alias}">${DEFAULT_URL}/${created.alias}</a></dd>`,
      );
      expect(html).toContain('<dt>Title</dt><dd>Landing page</dd>');
      expect(html).toContain(
        `<dd><a class="url" href="${DESTINATION}" rel="noopener noreferrer nofollow">${DESTINATION}</a></dd>`,
      );
      expect(html).toContain('<dt>Status</dt><dd>Active</dd>');
      // The way on goes through the short link, so that the visit is counted and its rules apply.
      expect(html).toContain(
        `<a class="button" href="/${created.alias}">Continue to ${new URL(DESTINATION).host}</a>`,
      );
      await expectClicks(account, created.id, 0);
    });

    it('hides the destination of a password link, and says when a link has expired', async () => {
      const account = await createAccount(t);
      const secret = await link(account, {
        url: 'https://secret.example/private-path?token=1',
        redirect_password: 'pw',
      });
      const html = expectPage(await get(`/${secret.alias}/+`), {
        status: 200,
        title: `Preview of ${secret.alias}`,
        heading: 'Link preview',
      });
      // The host, as the password page says it too, never the path or query.
      expect(html).toContain(
        '<dd>A page on secret.example. The full address is hidden: this link has a password.</dd>',
      );
      expect(html).not.toContain('private-path');
      expect(html).not.toContain('token=1');
      expect(html).toContain(`<a class="button" href="/${secret.alias}">Continue to secret.example</a>`);
      const expired = await link(account, { clicks_limit: '1' });
      await t.dataSource.query('UPDATE link_counters SET clicks = 1 WHERE link_id = $1', [expired.id]);
      const expiredHtml = expectPage(await get(`/${expired.alias}/+`), {
        status: 200,
        title: `Preview of ${expired.alias}`,
        heading: 'Link preview',
      });
      expect(expiredHtml).toContain('<dt>Status</dt><dd>Expired</dd>');
      expect(expiredHtml).toContain('<dt>Title</dt><dd>No title</dd>');
      // An expired link leads nowhere: no way on is offered.
      expect(expiredHtml).not.toContain('class="button"');
    });

    it('is a 404 page for an unknown or disabled link', async () => {
      const account = await createAccount(t);
      const disabled = await link(account, { disabled: '1' });
      expectPage(await get(`/${disabled.alias}/+`), NOT_FOUND);
      expectPage(await get(`/${unique('nothing')}/+`), NOT_FOUND);
    });

    it('uses the short URL of the link’s own domain', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account);
      const created = await link(account, { domain_id: domain.id });
      const html = expectPage(await get(`/${created.alias}/+`, { host: domain.name }), {
        status: 200,
        title: `Preview of ${created.alias}`,
        heading: 'Link preview',
      });
      expect(html).toContain(`">http://${domain.name}/${created.alias}</a></dd>`);
    });
  });

  describe('what the interstitials say', () => {
    it('names the domain and the destination host, never its path, on the password and consent pages', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        url: 'https://shop.example/private/path?coupon=SECRET',
        redirect_password: 'pw',
        sensitive_content: '1',
      });
      const leads =
        '<p class="leads">This link on <strong>localhost:3000</strong> leads to <strong>shop.example</strong>.</p>';
      const password = expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      expect(password).toContain(leads);
      const consent = expectPage(await post(`/${created.alias}/password`, { password: 'pw' }), {
        status: 200,
        title: 'Sensitive content',
        heading: 'Sensitive content ahead',
      });
      expect(consent).toContain(leads);
      for (const html of [password, consent]) {
        expect(html).not.toContain('/private/path');
        expect(html).not.toContain('SECRET');
      }
    });

    it('names the host the targeting picks for this visitor, and "several sites" for a rotation', async () => {
      const account = await createAccount(t);
      const targeted = await link(account, {
        sensitive_content: '1',
        targets_type: 'languages',
        targets: [{ key: 'de', value: 'https://de.example/start' }],
      });
      const german = await get(`/${targeted.alias}`, { language: 'de-DE' });
      expect(german.text).toContain('<strong>de.example</strong>');
      const english = await get(`/${targeted.alias}`, { language: 'en-GB' });
      expect(english.text).toContain('leads to <strong>example.com</strong>.');
      const rotating = await link(account, {
        sensitive_content: '1',
        targets_type: 'rotations',
        targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
      });
      expect((await get(`/${rotating.alias}`)).text).toContain(
        'This link on <strong>localhost:3000</strong> leads to one of several sites.',
      );
      const sameHost = await link(account, {
        sensitive_content: '1',
        targets_type: 'rotations',
        targets: [{ value: 'https://a.example/1' }, { value: 'https://a.example/2' }],
      });
      expect((await get(`/${sameHost.alias}`)).text).toContain('leads to <strong>a.example</strong>.');
    });

    it('offers a way back: to the referring page when there was one, else to the domain', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw', sensitive_content: '1' });
      const referred = await get(`/${created.alias}`, { referer: 'https://news.example.org/today?id=1' });
      expect(referred.text).toContain(
        '<a class="back" href="https://news.example.org/today?id=1">Back to news.example.org</a>',
      );
      const direct = await get(`/${created.alias}`);
      expect(direct.text).toContain('<a class="back" href="/">Not now: go to localhost:3000</a>');
      // A referrer that is no web page is not offered as a way back.
      const odd = await post(`/${created.alias}/password`, { password: 'pw', ref: 'javascript:alert(1)' });
      expect(odd.text).toContain('<a class="back" href="/">Not now: go to localhost:3000</a>');
      expect(odd.text).not.toContain('href="javascript:');
    });

    it('ties a wrong password message to its field', async () => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' });
      const first = await get(`/${created.alias}`);
      expect(first.text).not.toContain('aria-invalid="true"');
      const wrong = expectPage(await post(`/${created.alias}/password`, { password: 'no' }), {
        ...PASSWORD_PAGE,
        status: 403,
      });
      expect(wrong).toContain(
        '<input id="password" name="password" type="password" autocomplete="current-password" required autofocus aria-invalid="true" aria-describedby="password-error" />',
      );
      expect(wrong).toContain(WRONG_PASSWORD);
    });

    it.each([
      ['es-ES,es;q=0.9', 'es', 'Contraseña necesaria', 'Este enlace está protegido'],
      ['fr-CA, en;q=0.5', 'fr', 'Mot de passe requis', 'Ce lien est protégé'],
      ['en;q=0.2, de;q=0.8', 'de', 'Passwort erforderlich', 'Dieser Link ist geschützt'],
      ['it, pt;q=0.5', 'en', 'Password required', 'This link is protected'],
      ['', 'en', 'Password required', 'This link is protected'],
    ])('speaks the visitor’s language (%j gets %s)', async (language, lang, title, heading) => {
      const account = await createAccount(t);
      const created = await link(account, { redirect_password: 'pw' });
      const response = await get(`/${created.alias}`, { language });
      expectPage(response, { status: 200, title, heading, lang });
      expect(response.headers.vary).toContain('Accept-Language');
    });

    it('speaks the visitor’s language on the 404 and 410 pages, the fast path’s included', async () => {
      const account = await createAccount(t);
      const limited = await link(account, { clicks_limit: '1' });
      expect((await get(`/${limited.alias}`)).status).toBe(302);
      // Once over its limit, the fast path answers the link from memory with its own copy of the page.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expectPage(await get(`/${limited.alias}`, { language: 'de' }), {
          status: 410,
          title: 'Dieser Link ist abgelaufen',
          lang: 'de',
        });
      }
      expectPage(await get(`/${unique('nothing')}`, { language: 'fr' }), {
        status: 404,
        title: 'Lien introuvable',
        lang: 'fr',
      });
    });
  });

  describe('escaping', () => {
    const hostileTitle = `<script>alert("t")</script> & 'x'`;
    const hostileUrl = `https://example.com/?q="><script>alert(1)</script>&r='x'`;
    const escapedUrl =
      'https://example.com/?q=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;r=&#39;x&#39;';

    /** A link whose url was stored as typed, as rows from before the WHATWG form were: the pages escape it. */
    async function hostileLink(account: TestAccount, body: Record<string, unknown>): Promise<LinkData> {
      const created = await link(account, body);
      await t.dataSource.query('UPDATE links SET url = $1 WHERE id = $2', [hostileUrl, created.id]);
      return created;
    }

    it('stores a hostile url in its WHATWG form, where nothing is left to escape but the ampersand', async () => {
      const account = await createAccount(t);
      const created = await link(account, { url: hostileUrl });
      expect(created.url).toBe('https://example.com/?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&r=%27x%27');
    });

    it('escapes the title and destination on the preview page', async () => {
      const account = await createAccount(t);
      const created = await hostileLink(account, { title: hostileTitle });
      const html = expectPage(await get(`/${created.alias}/+`), {
        status: 200,
        title: `Preview of ${created.alias}`,
        heading: 'Link preview',
      });
      expect(html).toContain('<dd>&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; &#39;x&#39;</dd>');
      expect(html).toContain(
        `<a class="url" href="${escapedUrl}" rel="noopener noreferrer nofollow">${escapedUrl}</a>`,
      );
      expect(html).not.toContain('<script');
    });

    it("escapes the visitor's query on the password and consent pages", async () => {
      const account = await createAccount(t);
      const locked = await link(account, { redirect_password: 'pw' });
      const sensitive = await link(account, { sensitive_content: '1' });
      const query = `x="><script>alert(1)</script>`;
      const escaped = 'x=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;';
      for (const [created, page] of [
        [locked, PASSWORD_PAGE],
        [sensitive, CONSENT_PAGE],
      ] as const) {
        const html = expectPage(await rawGet(`/${created.alias}?${query}`), page);
        expect(hiddenField(html, 'q')).toBe(escaped);
        expect(html).not.toContain('<script');
      }
      const wrong = expectPage(await post(`/${locked.alias}/password`, { q: query, password: 'x' }), {
        ...PASSWORD_PAGE,
        status: 403,
      });
      expect(hiddenField(wrong, 'q')).toBe(escaped);
      expect(wrong).not.toContain('<script');
    });

    it('escapes the destination on the pixels page', async () => {
      const account = await createAccount(t);
      const pixel = await createPixel(account, 'facebook', '123456789012345');
      const created = await hostileLink(account, { pixel_ids: [pixel] });
      const html = expectPage(await get(`/${created.alias}`), {
        status: 200,
        title: 'Redirecting',
        heading: 'Redirecting…',
      });
      // The page sends the visitor on as a Location header would: to the WHATWG form, escaped.
      const sent = 'https://example.com/?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&amp;r=%27x%27';
      expect(html).toContain(`<noscript><meta http-equiv="refresh" content="0; url=${sent}" /></noscript>`);
      expect(html).toContain(`<script src="/assets/pixels.js" data-forward="${sent}"></script>`);
      expect(html).toContain(`<a class="url" href="${sent}">${sent}</a>`);
      // The scripts are the service's own, the pixel starter and the forwarder: the hostile destination adds none.
      expect(html.match(/<script/g)).toEqual(['<script', '<script']);
      expect(html).toContain('<script src="/assets/pixels.js" data-pixels=');
    });
  });

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

  describe('aliases and domains', () => {
    it('finds an alias whatever its case', async () => {
      const account = await createAccount(t);
      const created = await link(account, { alias: unique('MixedCase') });
      for (const alias of [created.alias, created.alias.toLowerCase(), created.alias.toUpperCase()]) {
        expectRedirect(await get(`/${alias}`), DESTINATION);
      }
      await expectClicks(account, created.id, 3);
    });

    it('resolves the same alias on each domain by the Host, and an unknown Host as the default domain', async () => {
      const account = await createAccount(t);
      const first = await createDomain(account);
      const second = await createDomain(account);
      const alias = unique('shared');
      await link(account, { alias, domain_id: first.id, url: 'https://first.example/' });
      await link(account, { alias, domain_id: second.id, url: 'https://second.example/' });
      await link(account, { alias, url: 'https://default.example/' });
      expectRedirect(await get(`/${alias}`, { host: first.name }), 'https://first.example/');
      expectRedirect(await get(`/${alias}`, { host: first.name.toUpperCase() }), 'https://first.example/');
      expectRedirect(await get(`/${alias}`, { host: second.name }), 'https://second.example/');
      expectRedirect(
        await get(`/${alias}`, { host: `${unique('unknown')}.example` }),
        'https://default.example/',
      );
      expectRedirect(await get(`/${alias}`, { host: 'localhost:3000' }), 'https://default.example/');
      expectRedirect(await get(`/${alias}`), 'https://default.example/');
    });

    it('treats a host that names no domain (an address, as a health check sends) as the default domain', async () => {
      const account = await createAccount(t);
      const alias = unique('byaddress');
      await link(account, { alias, url: 'https://default.example/' });
      for (const host of [
        '10.0.0.7:3000',
        '10.0.0.7',
        '[::1]:3000',
        'not a host!',
        `${unique('x')}.example`,
      ]) {
        // Twice: the second answer comes from what the first left in memory.
        expectRedirect(await get(`/${alias}`, { host }), 'https://default.example/');
        expectRedirect(await get(`/${alias}`, { host }), 'https://default.example/');
        expect((await t.http().get('/health').set('Host', host)).status).toBe(200);
      }
    });

    it("sends GET / to the domain's index_page, else a page that names the service and the domain", async () => {
      const account = await createAccount(t);
      const withIndex = await createDomain(account, { index_page: 'https://example.com/home' });
      const without = await createDomain(account);
      expectRedirect(await get('/', { host: withIndex.name }), 'https://example.com/home');
      const own = expectPage(await get('/', { host: without.name }), {
        status: 200,
        title: 'localhost:3000',
      });
      expect(own).toContain(`<p>${without.name} serves short links.`);
      const home = expectPage(await get('/'), { status: 200, title: 'localhost:3000' });
      expect(home).toContain('<p>localhost:3000 serves short links.');
    });
  });

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
