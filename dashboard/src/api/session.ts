// The session routes, typed by hand until the OpenAPI document describes them; swap these types for the generated
// ones then. A key is sent once, to POST /api/v1/session; every later request carries the session cookie and the
// same-origin header instead.
import { SESSION_HEADER } from './client';
import { ApiError, errorFromBody } from './errors';
import type { Scope } from './types';

const SESSION_PATH = '/api/v1/session';

export interface Session {
  scopes: Scope[];
  /** The spaces the key is restricted to; empty for every space. */
  space_ids: number[];
  /** When the session ends, ISO 8601 (or `Y-m-d H:i:s` in UTC); null for one that lasts as long as its key. */
  expires_at: string | null;
  key: { id: number; name: string; prefix: string | null };
}

interface SessionEnvelope {
  data: Session;
}

async function send(method: string, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await globalThis.fetch(new URL(SESSION_PATH, window.location.origin), {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', [SESSION_HEADER]: '1', ...headers },
    });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : 'The request failed.');
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  return errorFromBody(response.status, body);
}

/** Trades an API key for a session cookie. The key is sent in this one request and kept nowhere. */
export async function createSession(key: string): Promise<Session> {
  const response = await send('POST', { Authorization: `Bearer ${key}` });
  if (!response.ok) throw await failure(response);
  return ((await response.json()) as SessionEnvelope).data;
}

/** The session the cookie holds, or null when there is none (401). */
export async function readSession(): Promise<Session | null> {
  const response = await send('GET');
  if (response.status === 401) return null;
  if (!response.ok) throw await failure(response);
  return ((await response.json()) as SessionEnvelope).data;
}

/** Ends the session (200 with the deleted envelope, or 204); the cookie stops working at once. */
export async function endSession(): Promise<void> {
  const response = await send('DELETE');
  // A 401 means the session had already ended: signed out either way.
  if (!response.ok && response.status !== 401) throw await failure(response);
}

/** A session's end as an ISO 8601 time: the API writes `Y-m-d H:i:s` in UTC, without a zone. */
export function sessionExpiry(session: Session): string | null {
  const value = session.expires_at;
  if (value === null) return null;
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
}
