import { randomBytes } from 'node:crypto';
import qs from 'qs';
import { ClickWriter } from '../../src/clicks/click-writer';
import type { TestAccount, TestApp } from './app';
import type { LinkData } from './links';

export type { LinkData };

/** Real user agents, as browsers and crawlers send them. */
export const UA = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iPadSafari:
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  samsungTv:
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
  googlebot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/124.0.6367.155 Safari/537.36',
  slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  facebookPreview: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  twitterPreview: 'Twitterbot/1.0',
  whatsAppPreview: 'WhatsApp/2.23.20.0 A',
  discordPreview: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  linkedInPreview: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  /** A person, in Facebook's in-app browser: counted. */
  facebookInApp:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.38.104;FBBV/600000000;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]',
  curl: 'curl/8.4.0',
} as const;

/** Addresses whose country the bundled GeoIP database knows. */
export const IP = {
  /** Google DNS: US, North America. */
  us: '8.8.8.8',
  /** MaxMind's test range, in DB-IP too: GB, Europe. */
  gb: '81.2.69.142',
} as const;

/** A string no other test (or test file sharing the database) will come up with. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/**
 * A link made through the API, with a fresh alias unless the body names one: a form body in bracket notation, as
 * phpShort clients send it, so that values may be given as the strings a form carries (`clicks_limit: '1'`).
 */
export async function createLink(
  t: TestApp,
  account: TestAccount,
  body: Record<string, unknown>,
): Promise<LinkData> {
  const response = await t
    .http()
    .post('/api/v1/links')
    .set('Authorization', account.auth)
    .type('form')
    .send(qs.stringify({ alias: unique('v'), ...body }));
  expect(response.body).toEqual({ data: expect.any(Object), status: 200 });
  expect(response.status).toBe(201);
  return response.body.data as LinkData;
}

/** The link as the API shows it now. */
export async function showLink(t: TestApp, account: TestAccount, id: number): Promise<LinkData> {
  const response = await t.http().get(`/api/v1/links/${id}`).set('Authorization', account.auth);
  expect(response.status).toBe(200);
  return response.body.data as LinkData;
}

export interface ClickRow {
  link_id: number;
  created_at: Date;
  referrer: string | null;
  country: string | null;
  city: string | null;
  continent: string | null;
  browser: string | null;
  operating_system: string | null;
  device: string | null;
  language: string | null;
}

/** Every column of a link's click rows, oldest first, once the app has written the clicks it holds. */
export async function clickRows(t: TestApp, linkId: number): Promise<ClickRow[]> {
  await t.app.get(ClickWriter).settle([linkId]);
  return t.dataSource.query('SELECT * FROM clicks WHERE link_id = $1 ORDER BY created_at', [linkId]);
}

/** What the page checks read of a response: a supertest response, or a raw one. */
export interface PageResponse {
  status: number;
  headers: Record<string, unknown>;
  text: string;
}

export interface PageExpectation {
  status: number;
  title: string;
  /** The `<h1>`; the title when absent. */
  heading?: string;
  /** The page's language: English when absent. */
  lang?: string;
}

/**
 * A visitor page: real HTML with a language, a title and a heading, never cached, under a strict
 * Content-Security-Policy that allows nothing inline but the one stylesheet, and sandboxed.
 */
export function expectPage(response: PageResponse, expected: PageExpectation): string {
  expect(response.status).toBe(expected.status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('private, no-store');
  const policy = String(response.headers['content-security-policy']);
  expect(policy.split('; ')[0]).toBe("default-src 'none'");
  expect(policy).toMatch(/(^|; )style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');
  const html = response.text;
  // An opaque origin, so that nothing on the page can use the dashboard's session; forms where it has one.
  expect(policy.split('; ').filter((directive) => directive.startsWith('sandbox'))).toEqual([
    html.includes('<form') ? 'sandbox allow-scripts allow-forms' : 'sandbox allow-scripts',
  ]);
  expect(html.startsWith(`<!doctype html>\n<html lang="${expected.lang ?? 'en'}">`)).toBe(true);
  expect(response.headers['content-language']).toBe(expected.lang ?? 'en');
  expect(html).toContain(`<title>${expected.title}</title>`);
  expect(html).toContain(`<h1>${expected.heading ?? expected.title}</h1>`);
  // Nothing inline runs: no script without a source, no event handler attribute, no style attribute.
  expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  expect(html).not.toMatch(/\sstyle=/i);
  return html;
}

/** The value of a form's hidden field. */
export function hiddenField(html: string, name: string): string | null {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)" />`).exec(html);
  return match === null ? null : match[1];
}

/** The action of the page's form. */
export function formAction(html: string): string | null {
  return /<form method="post" action="([^"]*)">/.exec(html)?.[1] ?? null;
}
