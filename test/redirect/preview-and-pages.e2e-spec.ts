import { rawRequest } from '../support/api';
import { createAccount, type TestAccount, type TestApp } from '../support/app';
import { expectPage, hiddenField, UA, unique, type LinkData, type PageResponse } from '../support/visitors';
import {
  DESTINATION,
  NOT_FOUND,
  PASSWORD_PAGE,
  CONSENT_PAGE,
  WRONG_PASSWORD,
  createListeningApp,
  visitClient,
} from './support';

/** The host of APP_URL (unset in tests): the default domain, and the one an unknown Host falls back to. */
const DEFAULT_URL = 'http://localhost:3000';

/**
 * The pages a visitor reads: the preview /{alias}/+, what the interstitials say, and how they escape what
 * they show.
 */
describe('Visiting short links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, link, expectClicks, createDomain, createPixel } = visitClient(() => t);

  /** A GET whose path is sent exactly as given (supertest would percent-encode quotes and angle brackets). */
  async function rawGet(path: string): Promise<PageResponse> {
    const { status, headers, body } = await rawRequest(t, path, { headers: { 'User-Agent': UA.macSafari } });
    return { status, headers, text: body.toString('utf8') };
  }

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
});
