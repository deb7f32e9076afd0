import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The dashboard's session cookie and the proof that a request carrying it comes from the dashboard itself. Both
 * are read by the authentication of every API request (auth/request-account.ts), which takes a cookie only with the
 * proof: SameSite=Strict keeps the cookie off requests that other sites start, and the proof is what a page of
 * another origin cannot forge without a CORS preflight that this service never grants.
 */

export const SESSION_COOKIE = 'shortlink_session';
/** The header every request the dashboard makes carries (`X-Shortlink-Session: 1`). */
export const SESSION_PROOF_HEADER = 'x-shortlink-session';

/** A new session token: 256 random bits behind a prefix that secret scanners can recognise. */
export function generateSessionToken(): string {
  return `lss_${randomBytes(32).toString('base64url')}`;
}

/** The session token of a request's Cookie header, or null. */
export function sessionToken(headers: IncomingHttpHeaders): string | null {
  const header = headers.cookie;
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1 || part.slice(0, separator).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(separator + 1).trim();
    return /^lss_[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
  }
  return null;
}

/**
 * The Set-Cookie value of a session: HttpOnly (no script reads it), SameSite=Strict (no other site's request
 * carries it), Secure when the service is served over https, for the whole host (the API and the app).
 */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/**
 * Whether a request is the dashboard's own: it carries the proof header, and the browser's own statements of where
 * it comes from, when it makes them, name this service: `Origin` is the service's public origin (APP_URL) or the
 * origin of the host it was sent to, and `Sec-Fetch-Site` is `same-origin`. `Origin: null` (a sandboxed visitor
 * page, a redirect from another origin) is never the dashboard's.
 */
export function sameOriginProof(headers: IncomingHttpHeaders, appOrigin: string): boolean {
  if (headers[SESSION_PROOF_HEADER] !== '1') return false;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = headers.origin;
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  if (origin === appOrigin) return true;
  try {
    return headers.host !== undefined && new URL(origin).host === headers.host;
  } catch {
    return false;
  }
}
