import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError, errorFromResponse, isAbort } from './errors';
import type { paths } from './schema';

/**
 * The same-origin proof the service asks of every request made with the session cookie: a page on another origin
 * cannot send a custom header without the service's consent, so a forged form or image request is refused.
 */
export const SESSION_HEADER = 'X-Shortlink-Session';

const signedOutListeners = new Set<() => void>();

/** Calls `listener` whenever the API answers 401: the session expired or its key was revoked. */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export function notifySignedOut(): void {
  for (const listener of signedOutListeners) listener();
}

const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    request.headers.set(SESSION_HEADER, '1');
    // After sign-in the cookie is the only credential: the key never travels again.
    request.headers.delete('Authorization');
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) notifySignedOut();
    return response;
  },
};

/** The typed client of /api/v1, generated from the OpenAPI document. */
export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
  // Looked up at each call rather than captured once, so the fetch in force is the one used.
  fetch: (request) => globalThis.fetch(request),
});
api.use(sessionMiddleware);

interface FetchResult<T = unknown> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; otherwise an ApiError (status 0 when no answer came). */
export async function call<T>(request: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await request;
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, error instanceof Error ? error.message : 'The request failed.');
  }
  if (!result.response.ok) throw await errorFromResponse(result.response, result.error ?? null);
  return result.data as T;
}

/** The routes that delete one row by its id (`/api/v1/spaces/{id}`...). */
type DeleteById = {
  [P in keyof paths]: paths[P] extends { delete: { parameters: { path: { id: number } } } } ? P : never;
}[keyof paths];

/** The deletion of a row through `path`, the route that deletes a row by its id. */
export function deleteById(path: DeleteById): (row: { id: number }) => Promise<unknown> {
  return (row) => call(api.DELETE(path, { params: { path: { id: row.id } } }));
}

/** What an operation's JSON request sends, and what its success (200 or 201) answers. */
type JsonBody<Operation> = Operation extends { requestBody?: { content: { 'application/json': infer Body } } }
  ? Body
  : never;
type JsonAnswer<Operation> = Operation extends {
  responses: { 200: { content: { 'application/json': infer Answer } } };
}
  ? Answer
  : Operation extends { responses: { 201: { content: { 'application/json': infer Answer } } } }
    ? Answer
    : never;

/**
 * The collections whose rows a POST to the collection creates and a PUT to the row (`{collection}/{id}`) changes,
 * with the body both take and what they answer.
 */
type Editable = {
  [P in keyof paths]: `${P}/{id}` extends keyof paths
    ? paths[P] extends { post: infer Create }
      ? paths[`${P}/{id}`] extends { put: infer Update }
        ? { body: JsonBody<Create> & JsonBody<Update>; answer: JsonAnswer<Create> | JsonAnswer<Update> }
        : never
      : never
    : never;
};
type Collection = { [P in keyof Editable]: Editable[P] extends never ? never : P }[keyof Editable];

/** A write to a route chosen at run time, which the typed client cannot check. */
type Write = (route: string, init: object) => Promise<FetchResult>;

/** A create-or-edit form's request: the PUT of `row` when one is edited, else the POST of a new one. */
export function saveRow<P extends Collection>(
  collection: P,
  row: { id: number } | null,
  body: Editable[P]['body'],
): Promise<Editable[P]['answer']> {
  // The typed client checks one literal route at a time; this function's signature types the two it chooses from.
  const client = api as unknown as Record<'PUT' | 'POST', Write>;
  const request = row
    ? client.PUT(`${collection}/{id}`, { params: { path: { id: row.id } }, body })
    : client.POST(collection, { body });
  return call(request) as Promise<Editable[P]['answer']>;
}

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * A call to a route the OpenAPI document does not describe yet (the sign-in providers), with the session header and
 * the 401 handling of the typed client; its answer's type is the caller's word. Move each to `api` once
 * `npm run generate` gives it a type.
 */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', [SESSION_HEADER]: '1' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await globalThis.fetch(new URL(path, window.location.origin), {
      method,
      credentials: 'same-origin',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, error instanceof Error ? error.message : 'The request failed.');
  }
  if (response.status === 401) notifySignedOut();
  if (!response.ok) throw await errorFromResponse(response);
  return (response.status === 204 ? null : await response.json()) as T;
}
