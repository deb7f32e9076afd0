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
