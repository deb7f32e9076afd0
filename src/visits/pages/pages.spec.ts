import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { escapeHtml, html, trusted } from '../../common/html';
import type { Page } from './page';
import { Pages, retryAfter } from './pages';
import { translatorFor } from './translator';
import { views } from './views';

describe('escapeHtml', () => {
  it('escapes the characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, and leaves other text alone', () => {
    expect(escapeHtml('&amp; café {{x}}')).toBe('&amp;amp; café {{x}}');
  });
});

describe('html', () => {
  it('escapes values and inserts markup built by the service as it is', () => {
    const text = '<script>alert(1)</script>';
    const markup = html`<p title="${'"q"'}">${text}</p>${html`<i>${'&'}</i>`}`.markup;
    expect(markup).toBe('<p title="&quot;q&quot;">&lt;script&gt;alert(1)&lt;/script&gt;</p><i>&amp;</i>');
  });

  it('joins arrays, writes numbers, and leaves nothing for null, undefined and false', () => {
    expect(html`[${[1, '<', trusted('<b>')]}][${null}][${undefined}][${false}][${0}]`.markup).toBe(
      '[1&lt;<b>][][][][0]',
    );
  });
});

describe('Pages', () => {
  const pages = new Pages();
  const style = readFileSync(join(__dirname, 'templates', 'style.css'), 'utf8').trim();
  const styleHash = createHash('sha256').update(style).digest('base64');
  const en = translatorFor('en');

  /** What a page writes on a response: its status, headers and body. */
  function written(write: (response: ServerResponse) => void) {
    const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
    const response = {
      writeHead(code: number, headers: Record<string, string>) {
        sent.status = code;
        sent.headers = headers;
        return this;
      },
      end(body?: string) {
        sent.body = body;
        return this;
      },
    } as unknown as ServerResponse;
    write(response);
    return sent;
  }

  function send(status: number, page: Page, acceptLanguage?: string) {
    const request = { method: 'GET', headers: { 'accept-language': acceptLanguage } };
    return written((response) => pages.write(request, response, status, () => page));
  }

  it('renders a page in the layout: language, title, heading, the one stylesheet', () => {
    const rendered = pages.render(en, { title: 'Link <not> found', body: html`<p>${'a & b'}</p>` });
    expect(rendered.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(rendered).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />');
    expect(rendered).toContain('<title>Link &lt;not&gt; found</title>');
    expect(rendered).toContain('<h1>Link &lt;not&gt; found</h1>');
    expect(rendered).toContain(`<style>${style}</style>`);
    expect(rendered).toContain('<p>a &amp; b</p>');
    expect(rendered).toContain('<main>');
  });

  it('widens the main column only for a page that asks, and puts its kicker above the heading', () => {
    const rendered = pages.render(en, {
      title: 'T',
      heading: 'H',
      before: html`<p class="kicker">K</p>`,
      body: html``,
      wide: true,
    });
    expect(rendered).toContain('<main class="wide">\n      <p class="kicker">K</p><h1>H</h1>');
  });

  it('sends a page with a strict policy, in the language asked for, never cached, not indexed', () => {
    const sent = send(404, views.notFound(translatorFor('de')), 'de-CH, en;q=0.5');
    expect(sent.status).toBe(404);
    expect(sent.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': [
        "default-src 'none'",
        `style-src 'sha256-${styleHash}'`,
        "img-src 'self'",
        "script-src 'none'",
        "frame-src 'none'",
        "connect-src 'none'",
        "form-action 'self' http: https:",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        'sandbox allow-scripts',
      ].join('; '),
      'Content-Language': 'de',
      Vary: 'Accept-Language',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Content-Length': Buffer.byteLength(sent.body ?? ''),
    });
    expect(sent.body).toContain('<html lang="de">');
    expect(sent.body).toContain('<title>Link nicht gefunden</title>');
  });

  it('adds the sources a page asks for, replacing none', () => {
    const sent = send(
      200,
      views.pixels(en, {
        destination: 'https://example.com/',
        pixels: html``,
        allow: { 'img-src': ['https://img.example'], 'script-src': ["'self'", 'https://js.example'] },
      }),
    );
    const policy = sent.headers!['Content-Security-Policy'];
    expect(policy).toContain("img-src 'self' https://img.example;");
    expect(policy).toContain("script-src 'self' https://js.example;");
    expect(policy).toContain("frame-src 'none';");
  });

  it('sandboxes every page, letting forms be sent only from a page that has one', () => {
    const form = { action: '/a/password', query: '', referrer: '' };
    const leads = { domain: 'sho.rt', host: 'example.com' };
    const withForms = {
      password: views.password(en, { form, leads, error: null }),
      consent: views.consent(en, { form, token: 't', leads }),
      statsPassword: views.statsPassword(en, { action: '/a/stats', domain: 'sho.rt', wrong: false }),
    };
    for (const [name, page] of Object.entries(withForms)) {
      const { headers, body } = pages.compose(en, page);
      expect({ name, form: body.includes('<form method="post"') }).toEqual({ name, form: true });
      expect({ name, sandbox: headers['Content-Security-Policy'].split('; ').at(-1) }).toEqual({
        name,
        sandbox: 'sandbox allow-scripts allow-forms',
      });
    }
    const pixels = views.pixels(en, { destination: 'https://example.com/', pixels: html``, allow: {} });
    for (const page of [pixels, views.notFound(en), views.expired(en), views.tooManyRequests(en, 1000)]) {
      const { headers, body } = pages.compose(en, page);
      expect(body).not.toContain('<form');
      expect(headers['Content-Security-Policy'].split('; ').at(-1)).toBe('sandbox allow-scripts');
    }
  });

  it('makes the expired page once per language', () => {
    const french = pages.expiredPage('fr-FR,fr;q=0.9');
    expect(french.body).toContain('<title>Ce lien a expiré</title>');
    expect(french.headers['Content-Language']).toBe('fr');
    expect(pages.expiredPage('fr')).toBe(french);
    expect(pages.expiredPage(undefined).body).toContain('<title>This link has expired</title>');
  });

  it('says the wait of a 429 in the visitor’s language, and sets Retry-After', () => {
    const request = { method: 'GET', headers: { 'accept-language': 'es' } };
    const attempts = retryAfter(14 * 60_000 + 1);
    let sent = written((response) =>
      pages.write(request, response, 429, (t) => views.tooManyAttempts(t, attempts.waitMs), attempts.header),
    );
    expect(sent.headers?.['Retry-After']).toBe('841');
    expect(sent.body).toContain('<p>Espera 15 minutos antes de volver a intentarlo.');
    const requests = retryAfter(1500);
    sent = written((response) =>
      pages.write(request, response, 429, (t) => views.tooManyRequests(t, requests.waitMs), requests.header),
    );
    expect(sent.headers?.['Retry-After']).toBe('2');
    expect(sent.body).toContain('<p>Espera 2 segundos y vuelve a abrir el enlace.</p>');
  });

  it('writes the headers alone to a HEAD request', () => {
    const sent = written((response) =>
      pages.write({ method: 'HEAD', headers: {} }, response, 404, (t) => views.notFound(t)),
    );
    expect(sent.status).toBe(404);
    expect(sent.headers?.['Content-Type']).toBe('text/html; charset=utf-8');
    expect(Number(sent.headers?.['Content-Length'])).toBeGreaterThan(100);
    expect(sent.body).toBeUndefined();
  });
});
