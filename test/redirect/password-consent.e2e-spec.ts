import { hashSecret, verifySecret } from '../../src/common/secret-hash';
import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { clickRows, expectPage, formAction, hiddenField, IP, UA, unique } from '../support/visitors';
import {
  DESTINATION,
  NOT_FOUND,
  PASSWORD_PAGE,
  CONSENT_PAGE,
  WRONG_PASSWORD,
  expectRedirect,
  createListeningApp,
  visitClient,
} from './support';

const PASSWORD_FIRST = '<p class="error" id="password-error" role="alert">Enter the password first.</p>';

/** The steps before a destination: a redirect password, the sensitive content consent, and both in turn. */
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

  const { get, post, link, expectClicks } = visitClient(() => t);

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
});
