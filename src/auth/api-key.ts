import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: 256 bits, written in base64url, behind a prefix that secret scanners can recognise. */
export function generateApiKey(): string {
  return `lsk_${randomBytes(32).toString('base64url')}`;
}

/** Keys are stored and looked up by this hash only. High-entropy keys need no slow hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The first 8 characters (`lsk_` and 4 more): enough to tell keys apart in a list, 24 bits of the 256, never
 * enough to use one.
 */
export function keyPrefix(key: string): string {
  return key.slice(0, 8);
}

/** The key of an `Authorization: Bearer <key>` header, or null. The only place that reads the header's form. */
export function bearerToken(header: string | undefined): string | null {
  return (header === undefined ? null : /^Bearer\s+(\S+)$/i.exec(header)?.[1]) ?? null;
}
