import { vi } from 'vitest';

/** A request as the stand-in fetch received it. */
export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  credentials: RequestCredentials;
  /** The body as text; null for a request without one. */
  body: string | null;
}

export type Handler = (request: Recorded) => Response | Promise<Response>;

/** A route's answer: a function of the request, or a body for a 200. */
export type Routes = Record<string, Handler | object>;

export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** A list answer in the API's envelope, one page holding `data`. */
export function listOf<T>(data: T[], page = 1, lastPage = 1, perPage = 25) {
  const from = data.length === 0 ? null : (page - 1) * perPage + 1;
  return {
    data,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      links: [],
      path: '',
      per_page: perPage,
      to: from === null ? null : from + data.length - 1,
      total: lastPage * perPage,
    },
    status: 200,
  };
}

function pattern(route: string): { method: string; path: RegExp } {
  const [method = 'GET', path = '/'] = route.split(' ');
  return { method, path: new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}$`) };
}

/**
 * Replaces fetch with one that answers from `routes` ("GET /api/v1/links/:id"), records every request, and
 * answers 404 in the API's shape for a route it does not know.
 */
export function mockApi(routes: Routes) {
  const requests: Recorded[] = [];
  const table = Object.entries(routes).map(([route, answer]) => ({ ...pattern(route), answer }));
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const recorded: Recorded = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      credentials: request.credentials,
      body: request.method === 'GET' || request.method === 'HEAD' ? null : await request.text(),
    };
    requests.push(recorded);
    const route = table.find(
      ({ method, path }) => method === recorded.method && path.test(recorded.url.pathname),
    );
    if (route === undefined) return json(404, { message: 'Resource not found.', status: 404 });
    return typeof route.answer === 'function' ? (route.answer as Handler)(recorded) : json(200, route.answer);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    requests,
    /** The requests to `method path` (exact path), in order. */
    to: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.url.pathname === path),
  };
}
