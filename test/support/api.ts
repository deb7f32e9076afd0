import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  /** A GET whose body is read as text whatever its type (a CSV export): `body` is the string. */
  function text(account: TestAccount, path: string) {
    return call(account, 'get', path)
      .buffer(true)
      .parse((response, done) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => done(null, body));
      });
  }

  return { call, form, json, text };
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

/** The routes of a resource, as a suffix of its path: list, create, show, update (PUT and PATCH) and delete. */
export const RESOURCE_ROUTES: [Verb, string][] = [
  ['get', ''],
  ['post', ''],
  ['get', '/:id'],
  ['put', '/:id'],
  ['patch', '/:id'],
  ['delete', '/:id'],
];

/** The answer to a list with nothing in it: the whole envelope, keys in the contract's order, one page of none. */
export function expectEmptyList(response: Response, pathname: string): void {
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const path = listPath(response);
  expect(path).toMatch(new RegExp(`^http://[^/?]+${pathname}$`));
  expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta', 'status']);
  expect(Object.keys(response.body.links)).toEqual(['first', 'last', 'prev', 'next']);
  expect(Object.keys(response.body.meta)).toEqual(META_FIELDS);
  expect(response.body).toEqual({
    data: [],
    links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
    meta: {
      current_page: 1,
      from: null,
      last_page: 1,
      links: metaLinks(path, 1, 1),
      path,
      per_page: 10,
      to: null,
      total: 0,
    },
    status: 200,
  });
}

/** An answer read as sent: the status, the headers and the body's bytes, never decoded. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A request to the app's listening server past supertest, which would percent-encode quotes and angle brackets in
 * the path and decompress the body.
 */
export function rawRequest(
  t: TestApp,
  path: string,
  options: { method?: string; headers?: OutgoingHttpHeaders } = {},
): Promise<RawResponse> {
  const { port } = (t.app.getHttpServer() as { address(): AddressInfo }).address();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * What every resource of the API answers alike, for the one at `path` (`/api/v1/spaces`): create from a form body
 * (the test fails unless it is created), show, list, and the names of a list's items.
 */
export function resourceClient<T>(app: () => TestApp, path: string) {
  const { call, form } = apiClient(app);
  return {
    async create(account: TestAccount, body: Body): Promise<T> {
      const response = await form(account, 'post', path, body);
      expect(response.status).toBe(201);
      return response.body.data as T;
    },
    async show(account: TestAccount, id: number | string): Promise<Response> {
      return call(account, 'get', `${path}/${id}`);
    },
    async list(account: TestAccount, query = ''): Promise<Response> {
      return call(account, 'get', `${path}${query}`);
    },
    names(response: Response): string[] {
      return (response.body.data as { name: string }[]).map((item) => item.name);
    },
  };
}
