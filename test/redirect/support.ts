import type { Response, Test } from 'supertest';
import { createTestApp, type TestAccount, type TestApp } from '../support/app';
import { clickRows, createLink, showLink, UA, unique, type LinkData } from '../support/visitors';

/** What more than one redirect spec uses: the pages a visitor meets, visits, and the checks of an answer. */

export const DESTINATION = 'https://example.com/landing';
export const NOT_FOUND = { status: 404, title: 'Link not found' };
export const EXPIRED = { status: 410, title: 'This link has expired' };
export const PASSWORD_PAGE = { status: 200, title: 'Password required', heading: 'This link is protected' };
export const CONSENT_PAGE = { status: 200, title: 'Sensitive content', heading: 'Sensitive content ahead' };
export const WRONG_PASSWORD =
  '<p class="error" id="password-error" role="alert">That password is not right. Try again.</p>';

export interface Visitor {
  /** null sends no User-Agent at all; a desktop Safari by default. */
  ua?: string | null;
  host?: string;
  /** Sent as X-Forwarded-For. */
  ip?: string;
  language?: string;
  referer?: string;
  app?: TestApp;
}

/** No TRUST_PROXY: X-Forwarded-For is ignored. Listening, so that many requests can share it. */
export async function createListeningApp(): Promise<TestApp> {
  const t = await createTestApp();
  await t.app.listen(0, '127.0.0.1');
  return t;
}

export function withVisitor(test: Test, visitor: Visitor): Test {
  if (visitor.ua !== null) test.set('User-Agent', visitor.ua ?? UA.macSafari);
  if (visitor.host !== undefined) test.set('Host', visitor.host);
  if (visitor.ip !== undefined) test.set('X-Forwarded-For', visitor.ip);
  if (visitor.language !== undefined) test.set('Accept-Language', visitor.language);
  if (visitor.referer !== undefined) test.set('Referer', visitor.referer);
  return test;
}

export function expectRedirect(response: Response, location: string, status = 302): void {
  expect({ status: response.status, location: response.headers.location }).toEqual({
    status,
    location,
  });
  expect(response.headers['cache-control']).toBe('private, no-store');
  expect(response.text).toBe('');
}

/** Visits and the links, domains and pixels they go to, on the app `app()` unless a call names another. */
export function visitClient(app: () => TestApp) {
  function get(path: string, visitor: Visitor = {}): Test {
    return withVisitor((visitor.app ?? app()).http().get(path), visitor);
  }

  function post(path: string, form: Record<string, string>, visitor: Visitor = {}): Test {
    return withVisitor((visitor.app ?? app()).http().post(path), visitor)
      .type('form')
      .send(form);
  }

  function link(account: TestAccount, body: Record<string, unknown>, on: TestApp = app()): Promise<LinkData> {
    return createLink(on, account, { url: DESTINATION, ...body });
  }

  /** The link's counter (through the API) and its click rows agree on `count`. */
  async function expectClicks(account: TestAccount, linkId: number, count: number, on: TestApp = app()) {
    expect((await showLink(on, account, linkId)).clicks).toBe(count);
    expect(await clickRows(on, linkId)).toHaveLength(count);
  }

  async function createDomain(account: TestAccount, fields: Record<string, string> = {}) {
    const response = await app()
      .http()
      .post('/api/v1/domains')
      .set('Authorization', account.auth)
      .type('form')
      .send({ name: `${unique('host')}.example`, ...fields });
    expect(response.status).toBe(201);
    return response.body.data as { id: number; name: string; url: string };
  }

  async function createPixel(account: TestAccount, type: string, value: string): Promise<number> {
    const response = await app()
      .http()
      .post('/api/v1/pixels')
      .set('Authorization', account.auth)
      .type('form')
      .send({ name: unique('pixel'), type, value });
    expect(response.status).toBe(201);
    return (response.body.data as { id: number }).id;
  }

  return { get, post, link, expectClicks, createDomain, createPixel };
}
