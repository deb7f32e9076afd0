import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long the stats password unlocks a link's stats page in the browser that gave it. */
export const STATS_ACCESS_LIFETIME_MS = 24 * 60 * 60_000;

export const STATS_ACCESS_COOKIE = 'stats_access';

/**
 * Proof, kept in a signed HttpOnly cookie, that a browser gave a link's stats password. Keyed by the password's own
 * stored hash, as the visit token is: it works on every instance, needs no secret of its own, and dies when the
 * password changes.
 */
export function issueStatsAccess(linkId: number, passwordHash: string, now = Date.now()): string {
  const expires = now + STATS_ACCESS_LIFETIME_MS;
  return `${linkId}.${expires}.${sign(linkId, passwordHash, expires)}`;
}

export function verifyStatsAccess(
  value: string,
  linkId: number,
  passwordHash: string,
  now = Date.now(),
): boolean {
  const [id, expires, signature, ...rest] = value.split('.');
  if (rest.length > 0 || id !== String(linkId) || signature === undefined) return false;
  if (!/^\d{1,15}$/.test(expires) || Number(expires) < now) return false;
  const expected = Buffer.from(sign(linkId, passwordHash, Number(expires)), 'base64url');
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The values of every cookie of that name in a `Cookie` header (a browser may send one per path). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const pair of header.slice(0, 8192).split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    values.push(pair.slice(separator + 1).trim());
  }
  return values;
}

/** The `Set-Cookie` value that unlocks the stats page at `path`; `Secure` when the page is served over HTTPS. */
export function statsAccessCookie(value: string, path: string, secure: boolean): string {
  return [
    `${STATS_ACCESS_COOKIE}=${value}`,
    `Path=${path}`,
    `Max-Age=${STATS_ACCESS_LIFETIME_MS / 1000}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

function sign(linkId: number, passwordHash: string, expires: number): string {
  return createHmac('sha256', passwordHash).update(`stats:${linkId}:${expires}`).digest('base64url');
}
