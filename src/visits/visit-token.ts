import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a visitor who gave the password has to get through the consent page. */
const TOKEN_LIFETIME_MS = 10 * 60_000;

/**
 * Proof, carried in a hidden form field, that a visitor entered a link's password. Keyed by the password's own
 * stored hash: it works on every instance, needs no shared secret of its own, and dies when the password changes.
 */
export function issueVisitToken(linkId: number, passwordHash: string, now = Date.now()): string {
  const expires = now + TOKEN_LIFETIME_MS;
  return `${expires}.${sign(linkId, passwordHash, expires)}`;
}

export function verifyVisitToken(
  token: unknown,
  linkId: number,
  passwordHash: string,
  now = Date.now(),
): boolean {
  if (typeof token !== 'string') return false;
  const [expires, signature] = token.split('.');
  if (!/^\d{1,15}$/.test(expires ?? '') || signature === undefined || Number(expires) < now) return false;
  const expected = Buffer.from(sign(linkId, passwordHash, Number(expires)), 'base64url');
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sign(linkId: number, passwordHash: string, expires: number): string {
  return createHmac('sha256', passwordHash).update(`visit:${linkId}:${expires}`).digest('base64url');
}
