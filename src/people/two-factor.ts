import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
/** Codes of the step before and after count too: a phone's clock may be a little off. */
const WINDOW = 1;

function totp(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: 'Shortlink',
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });
}

/** A new TOTP secret: 160 random bits in base32, as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URL an authenticator app reads (from a QR code or pasted). */
export function otpauthUrl(secret: string, issuer: string, email: string): string {
  const url = totp(secret, email).toString();
  return url
    .replace('issuer=Shortlink', `issuer=${encodeURIComponent(issuer)}`)
    .replace('/Shortlink:', `/${encodeURIComponent(issuer)}:`);
}

/**
 * The time step a code belongs to, when it is right for `secret` at `now` (within a step either side) and later
 * than `lastStep`, the step of the last code used: a code works once. Null otherwise.
 */
export function totpStep(
  secret: string,
  code: string,
  lastStep: number | null,
  now = Date.now(),
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** How many recovery codes a user holds, each good once. */
export const RECOVERY_CODES = 10;

/** Ten new recovery codes: 80 random bits each, in four groups of four base32 letters (`ABCD-EFGH-JKLM-NPQR`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const letters = new Secret({ buffer: randomBytes(10).buffer }).base32.slice(0, 16);
    return letters.match(/.{4}/g)!.join('-');
  });
}

/** A recovery code as stored: the SHA-256 of its letters in upper case, without dashes or spaces. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex');
}

/** Whether `code` looks like a recovery code rather than an app's 6 digits. */
export function isRecoveryCode(code: string): boolean {
  return /^[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}-?[A-Za-z2-7]{4}$/.test(code.replace(/\s/g, ''));
}

/** Constant-time comparison of two hex hashes of the same length. */
export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
