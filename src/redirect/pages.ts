import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';

export type PageName =
  | 'not-found'
  | 'expired'
  | 'password'
  | 'consent'
  | 'pixels'
  | 'preview'
  | 'stats'
  | 'too-many-attempts'
  | 'too-many-requests'
  | 'query-too-long'
  | 'forbidden';

const PAGE_NAMES: readonly PageName[] = [
  'not-found',
  'expired',
  'password',
  'consent',
  'pixels',
  'preview',
  'stats',
  'too-many-attempts',
  'too-many-requests',
  'query-too-long',
  'forbidden',
];

export type PageValues = Record<string, string | number | null | undefined>;

export const EXPIRED_TITLE = 'This link has expired';

export interface PageOptions {
  title: string;
  heading?: string;
  /** Markup for the head, such as a meta refresh: trusted, built by this module. */
  head?: string;
  /** Extra Content-Security-Policy sources, by directive (the pixels page loads vendors' images and scripts). */
  allow?: Partial<Record<'img-src' | 'script-src' | 'frame-src' | 'connect-src', string[]>>;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (character) => HTML_ESCAPES[character]);
}

/**
 * `{{name}}` is escaped; `{{{name}}}` is inserted as it is and is only ever given markup built here. One pass,
 * so braces inside a value are never read as a placeholder.
 */
export function fill(template: string, values: PageValues, raw: Record<string, string> = {}): string {
  return template.replace(/\{\{\{(\w+)\}\}\}|\{\{(\w+)\}\}/g, (_match, rawName?: string, name?: string) =>
    rawName !== undefined ? (raw[rawName] ?? '') : escapeHtml(String(values[name!] ?? '')),
  );
}

/**
 * The pages visitors see: small, accessible HTML from the templates beside this file, sent with a strict
 * Content-Security-Policy (no scripts unless a page needs a vendor's, styles only the one stylesheet).
 */
@Injectable()
export class Pages {
  private readonly templates: Record<PageName | 'layout', string>;
  private readonly style: string;
  private readonly styleHash: string;

  constructor() {
    const directory = join(__dirname, 'templates');
    const read = (name: string) => readFileSync(join(directory, name), 'utf8');
    this.templates = Object.fromEntries(
      [...PAGE_NAMES, 'layout'].map((name) => [name, read(`${name}.html`)]),
    ) as Record<PageName | 'layout', string>;
    this.style = read('style.css').trim();
    this.styleHash = createHash('sha256').update(this.style).digest('base64');
  }

  render(page: PageName, values: PageValues, options: PageOptions, raw: Record<string, string> = {}): string {
    const body = fill(this.templates[page], values, raw);
    return fill(
      this.templates.layout,
      { title: options.title, heading: options.heading ?? options.title },
      { head: options.head ?? '', style: this.style, body },
    );
  }

  send(
    response: Response,
    status: number,
    page: PageName,
    values: PageValues,
    options: PageOptions,
    raw: Record<string, string> = {},
  ): void {
    const composed = this.compose(page, values, options, raw);
    response.status(status).set(composed.headers).send(composed.body);
  }

  /** A page and the headers it is sent with, for a response that is not Express's (the lean redirect path). */
  compose(
    page: PageName,
    values: PageValues,
    options: PageOptions,
    raw: Record<string, string> = {},
  ): { headers: Record<string, string>; body: string } {
    const allow = options.allow ?? {};
    const sources = (directive: keyof NonNullable<PageOptions['allow']>, base: string[]) =>
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
        'Cache-Control': 'private, no-store',
        'X-Robots-Tag': 'noindex, nofollow',
      },
      body: this.render(page, values, options, raw),
    };
  }

  /** The page of a link that has expired, as the visit routes send it with 410. */
  expiredPage(): { headers: Record<string, string>; body: string } {
    return this.compose('expired', {}, { title: EXPIRED_TITLE });
  }

  /** 429 with `Retry-After`, and the wait in words. */
  sendTooManyAttempts(response: Response, waitMs: number): void {
    const wait = this.retryAfter(response, waitMs);
    this.send(response, 429, 'too-many-attempts', { wait }, { title: 'Too many attempts' });
  }

  /** 429 for a client over the visitor routes' rate limit. */
  sendTooManyRequests(response: Response, waitMs: number): void {
    const wait = this.retryAfter(response, waitMs);
    this.send(response, 429, 'too-many-requests', { wait }, { title: 'Too many requests' });
  }

  /** Sets `Retry-After` and says the wait in words. */
  private retryAfter(response: Response, waitMs: number): string {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const minutes = Math.ceil(seconds / 60);
    response.set('Retry-After', String(seconds));
    return seconds < 60
      ? `${seconds} second${seconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
}
