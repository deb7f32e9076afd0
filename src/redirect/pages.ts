import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';
import { html, trusted, type Html } from '../common/html';
import { pickLocale, type Locale } from './messages';
import { translatorFor, type Translator } from './translator';
import { views } from './views';

export { escapeHtml } from '../common/html';

/** A visitor page: its title and heading as text, its body as markup built by {@link views}. */
export interface Page {
  title: string;
  /** The `<h1>`; the title when absent. */
  heading?: string;
  /** Markup above the heading (the stats page's kicker). */
  before?: Html;
  body: Html;
  /** Markup for the head, such as a meta refresh. */
  head?: Html;
  /** Extra Content-Security-Policy sources, by directive (the pixels page loads vendors' images and scripts). */
  allow?: Partial<Record<'img-src' | 'script-src' | 'frame-src' | 'connect-src', string[]>>;
  /** A page of several columns on a wide screen (the stats page). */
  wide?: boolean;
}

/** The part of a page's options that the pixels markup decides. */
export type PageOptions = Pick<Page, 'allow'>;

export interface ComposedPage {
  headers: Record<string, string>;
  body: string;
}

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

  send(response: Response, status: number, t: Translator, page: Page): void {
    const composed = this.compose(t, page);
    response.status(status).set(composed.headers).send(composed.body);
  }

  /** A page and the headers it is sent with, for a response that is not Express's (the lean redirect path). */
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

  /** 429 with `Retry-After`, and the wait in words. */
  sendTooManyAttempts(response: Response, waitMs: number): void {
    const t = this.translator(response.req);
    this.send(response, 429, t, views.tooManyAttempts(t, this.retryAfter(response, waitMs)));
  }

  /** 429 for a client over the visitor routes' rate limit. */
  sendTooManyRequests(response: Response, waitMs: number): void {
    const t = this.translator(response.req);
    this.send(response, 429, t, views.tooManyRequests(t, this.retryAfter(response, waitMs)));
  }

  /** Sets `Retry-After`, and returns the wait it says. */
  private retryAfter(response: Response, waitMs: number): number {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    response.set('Retry-After', String(seconds));
    return seconds * 1000;
  }

  private styleMarkup(): Html {
    // The stylesheet is this service's own file, hashed into the policy as it is.
    return trusted(this.style);
  }
}
