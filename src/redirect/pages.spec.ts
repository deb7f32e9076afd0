import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';
import { escapeHtml, html, trusted } from '../common/html';
import { Pages, type Page } from './pages';
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

  function send(status: number, page: Page, acceptLanguage?: string) {
    const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
    const response = {
      req: { headers: { 'accept-language': acceptLanguage } },
      status(code: number) {
        sent.status = code;
        return this;
      },
      set(headers: Record<string, string>) {
        sent.headers = headers;
        return this;
      },
      send(body: string) {
        sent.body = body;
        return this;
      },
    } as unknown as Response;
    pages.send(response, status, pages.translator(response.req), page);
    return sent;
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
      ].join('; '),
      'Content-Language': 'de',
      Vary: 'Accept-Language',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
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

  it('makes the expired page once per language', () => {
    const french = pages.expiredPage('fr-FR,fr;q=0.9');
    expect(french.body).toContain('<title>Ce lien a expiré</title>');
    expect(french.headers['Content-Language']).toBe('fr');
    expect(pages.expiredPage('fr')).toBe(french);
    expect(pages.expiredPage(undefined).body).toContain('<title>This link has expired</title>');
  });

  it('says the wait of a 429 in the visitor’s language, and sets Retry-After', () => {
    const headers: Record<string, string> = {};
    let body = '';
    const response = {
      req: { headers: { 'accept-language': 'es' } },
      status: () => response,
      set(name: string | Record<string, string>, value?: string) {
        if (typeof name === 'string') headers[name] = value!;
        else Object.assign(headers, name);
        return response;
      },
      send(sent: string) {
        body = sent;
        return response;
      },
    };
    pages.sendTooManyAttempts(response as unknown as Response, 14 * 60_000 + 1);
    expect(headers['Retry-After']).toBe('841');
    expect(body).toContain('<p>Espera 15 minutos antes de volver a intentarlo.');
    pages.sendTooManyRequests(response as unknown as Response, 1500);
    expect(headers['Retry-After']).toBe('2');
    expect(body).toContain('<p>Espera 2 segundos y vuelve a abrir el enlace.</p>');
  });
});
