import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../auth/api-key';

/**
 * A one-time token of 256 random bits behind a prefix that says what it is for (`lsi_` an invitation, `lsr_` a
 * password reset), stored only as its SHA-256: a stolen table opens nothing, and a lookup by hash compares no
 * secret byte by byte.
 */
export function generateToken(prefix: 'lsi' | 'lsr'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export const hashToken = hashApiKey;
