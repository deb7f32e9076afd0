import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { html, trusted, type Html } from '../../common/html';
import { pickLocale, type Locale } from './messages';
import type { ComposedPage, Page } from './page';
import { translatorFor, type Translator } from './translator';
import { views } from './views';

/**
 * The pages visitors see: small, accessible HTML in the visitor's language (from `Accept-Language`), sent with a
 * strict Content-Security-Policy (no scripts unless a page needs a vendor's, styles only the one stylesheet).
 */
@Injectable()
export class Pages {
  private readonly style: string;
  private readonly styleHash: string;
  private readonly expired = new Map<Locale, ComposedPage>();

  constructor() {
    this.style = readFileSync(join(__dirname, 'templates', 'style.css'), 'utf8').trim();
    this.styleHash = createHash('sha256').update(this.style).digest('base64');
  }

  /** The messages in the language the request asks for. */
  translator(request: { headers: { 'accept-language'?: string } }): Translator {
    return translatorFor(pickLocale(request.headers['accept-language']));
  }

  render(t: Translator, page: Page): string {
    return `<!doctype html>\n${
      html`<html lang="${t.locale}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex, nofollow" />
    <meta name="referrer" content="no-referrer" />
    ${page.head}
    <title>${page.title}</title>
    <style>${this.styleMarkup()}</style>
  </head>
  <body>
    <main${page.wide === true ? html` class="wide"` : ''}>
      ${page.before}<h1>${page.heading ?? page.title}</h1>
      ${page.body}
    </main>
  </body>
</html>
`.markup
    }`;
  }

  /**
   * Writes the page `view` makes, in the language the request asks for, with its headers and `extra` (a HEAD
   * request gets the headers alone). Any server's response: the routes' and the redirect's fast path alike.
   */
  write(
    request: { method?: string; headers: IncomingHttpHeaders },
    response: ServerResponse,
    status: number,
    view: (t: Translator) => Page,
    extra: Readonly<Record<string, string>> = {},
  ): void {
    const t = this.translator(request);
    const { headers, body } = this.compose(t, view(t));
    this.writeComposed(request, response, status, { headers: { ...headers, ...extra }, body });
  }

  writeComposed(
    request: { method?: string },
    response: ServerResponse,
    status: number,
    page: ComposedPage,
  ): void {
    response.writeHead(status, { ...page.headers, 'Content-Length': Buffer.byteLength(page.body) });
    response.end(request.method === 'HEAD' ? undefined : page.body);
  }

  /** A page and the headers it is sent with. */
  compose(t: Translator, page: Page): ComposedPage {
    const allow = page.allow ?? {};
    const sources = (directive: keyof NonNullable<Page['allow']>, base: string[]) =>
      `${directive} ${[...base, ...(allow[directive] ?? [])].join(' ')}`;
    const policy = [
      "default-src 'none'",
      `style-src 'sha256-${this.styleHash}'`,
      sources('img-src', ["'self'"]),
      sources('script-src', allow['script-src'] === undefined ? ["'none'"] : []),
      sources('frame-src', allow['frame-src'] === undefined ? ["'none'"] : []),
      sources('connect-src', allow['connect-src'] === undefined ? ["'none'"] : []),
      // A form's redirect is checked too: the destination may be any http(s) site, never a script URL.
      "form-action 'self' http: https:",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      // An opaque origin: no script here (a vendor's tag) can use the dashboard's session or the origin's storage.
      // allow-scripts keeps the pixels' tags, autofocus and the no-script refresh; script-src still decides.
      `sandbox allow-scripts${page.posts === true ? ' allow-forms' : ''}`,
    ].join('; ');
    return {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': policy,
        'Content-Language': t.locale,
        Vary: 'Accept-Language',
        'Cache-Control': 'private, no-store',
        'X-Robots-Tag': 'noindex, nofollow',
      },
      body: this.render(t, page),
    };
  }

  /** The page of a link that has expired, as the visit routes send it with 410: made once per language. */
  expiredPage(acceptLanguage?: string): ComposedPage {
    const locale = pickLocale(acceptLanguage);
    let page = this.expired.get(locale);
    if (page === undefined) {
      const t = translatorFor(locale);
      page = this.compose(t, views.expired(t));
      this.expired.set(locale, page);
    }
    return page;
  }

  private styleMarkup(): Html {
    // The stylesheet is this service's own file, hashed into the policy as it is.
    return trusted(this.style);
  }
}

/** The `Retry-After` of a wait, in whole seconds (at least one), and the wait it says. */
export function retryAfter(waitMs: number): { header: Record<string, string>; waitMs: number } {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return { header: { 'Retry-After': String(seconds) }, waitMs: seconds * 1000 };
}
