import type { Response } from 'supertest';
import type { TestAccount, TestApp } from './app';

/** The contract's date form: ISO 8601 in UTC with microseconds. */
export const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

export type Verb = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Body = Record<string, unknown>;

/**
 * Requests to the API as an account, or with no key at all when the account is null. The app is read at call
 * time, so a file can make it in `beforeAll`.
 */
export function apiClient(app: () => TestApp) {
  function call(account: TestAccount | null, verb: Verb, path: string) {
    const test = app().http()[verb](path);
    return account === null ? test : test.set('Authorization', account.auth);
  }

  /** A form body: an object, or a string for bracket notation (`targets[0][key]=US&...`). */
  function form(account: TestAccount, verb: 'post' | 'put' | 'patch', path: string, body: Body | string) {
    return call(account, verb, path).type('form').send(body);
  }

  function json(account: TestAccount, verb: 'post' | 'put' | 'patch', path: string, body: Body | string) {
    return call(account, verb, path).type('json').send(body);
  }

  return { call, form, json };
}

/**
 * Laravel's `meta.links` for a list of fewer than 14 pages: previous, every page, next. `query` is what a link
 * carries before `page=` (`search=x&`).
 */
export function metaLinks(path: string, current: number, lastPage: number, query = '') {
  const url = (page: number) => `${path}?${query}page=${page}`;
  return [
    { url: current > 1 ? url(current - 1) : null, label: '&laquo; Previous', active: false },
    ...Array.from({ length: lastPage }, (_, index) => ({
      url: url(index + 1),
      label: String(index + 1),
      active: index + 1 === current,
    })),
    { url: current < lastPage ? url(current + 1) : null, label: 'Next &raquo;', active: false },
  ];
}

/** The keys of a list's `meta`, in the contract's order. */
export const META_FIELDS = ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'];

/** An id no test will ever reach: the largest a PostgreSQL integer holds. */
export const UNKNOWN_ID = 2_147_483_647;

/** The absolute URL of the list endpoint as the server saw it (supertest picks the port). */
export function listPath(response: Response): string {
  const url = new URL(response.request.url);
  return `${url.origin}${url.pathname}`;
}
