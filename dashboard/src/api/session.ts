// The session routes. A person signs in with their email and password (or a passkey, an invitation, a
// registration); a key is sent once, to POST /api/v1/session. Every later request carries the session cookie and
// the same-origin header instead.
import { api, call, request, SESSION_HEADER } from './client';
import { ApiError, errorFromResponse } from './errors';
import type { AcceptInvitationBody, RegisterBody, Session, SignInBody, Workspace } from './types';

export type { AcceptInvitationBody, RegisterBody, Session, SignInBody, Workspace };

/** The ways in besides the password that this service offers (GET /api/v1/session/providers). */
export interface Providers {
  oidc: 0 | 1;
  registration: 0 | 1;
}

const SESSION_PATH = '/api/v1/session';
/** Where "Sign in with SSO" goes: a full page navigation, the provider's pages and back. */
export const SSO_PATH = `${SESSION_PATH}/oidc`;

/** Trades an API key for a session cookie. The key is sent in this one request and kept nowhere. */
export async function createSession(key: string): Promise<Session> {
  let response: Response;
  try {
    // Not the typed client: its middleware removes the Authorization header that this one request needs.
    response = await globalThis.fetch(new URL(SESSION_PATH, window.location.origin), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', [SESSION_HEADER]: '1', Authorization: `Bearer ${key}` },
    });
  } catch (error) {
    throw new ApiError(0, error instanceof Error ? error.message : 'The request failed.');
  }
  if (!response.ok) throw await errorFromResponse(response);
  return ((await response.json()) as { data: Session }).data;
}

/** A person's sign-in: 422 on `email` for wrong credentials, on `otp` when two-factor asks for a code. */
export async function signInWithPassword(body: SignInBody): Promise<Session> {
  return (await call(api.POST('/api/v1/session', { body }))).data;
}

/** The session the cookie holds, or null when there is none (401). */
export async function readSession(): Promise<Session | null> {
  try {
    return (await call(api.GET('/api/v1/session'))).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Ends the session (200 with the deleted envelope); the cookie stops working at once. */
export async function endSession(): Promise<void> {
  try {
    await call(api.DELETE('/api/v1/session'));
  } catch (error) {
    // A 401 means the session had already ended: signed out either way.
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
}

/** Moves the session to another of the user's workspaces; the answer is the session there. */
export async function switchWorkspace(workspaceId: number): Promise<Session> {
  return (await call(api.PUT('/api/v1/session', { body: { workspace_id: workspaceId } }))).data;
}

/** Accepts an invitation: a new user, or (signed in as the invited user) a new workspace; signed in either way. */
export async function acceptInvitation(body: AcceptInvitationBody): Promise<Session> {
  return (await call(api.POST('/api/v1/invitations/accept', { body }))).data;
}

/** An open registration: a user and a workspace they own, signed in. */
export async function register(body: RegisterBody): Promise<Session> {
  return (await call(api.POST('/api/v1/users', { body }))).data;
}

/** What the sign-in screen may offer besides the password; nothing when the service does not say (404). */
export async function readProviders(signal?: AbortSignal): Promise<Providers> {
  try {
    return (await request<{ data: Providers }>('GET', `${SESSION_PATH}/providers`, { signal })).data;
  } catch (error) {
    if (error instanceof ApiError) return { oidc: 0, registration: 0 };
    throw error;
  }
}

/** A session's end as an ISO 8601 time; older answers wrote `Y-m-d H:i:s` in UTC, without a zone. */
export function sessionExpiry(session: Session): string | null {
  const value = session.expires_at;
  if (value === null) return null;
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
}
