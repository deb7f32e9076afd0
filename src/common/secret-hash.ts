import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Slow hashes for the passwords of links (visitor and stats passwords): scrypt with N=2^14, r=8, p=5, one of
 * OWASP's equivalent settings for scrypt, the one with the least memory (16 MiB a hash, so the four hashing
 * threads fit a small container). Hashes made with other parameters still verify, and are upgraded on use.
 */
export const SCRYPT_PARAMETERS: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>> = { N: 16384, r: 8, p: 5 };
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      secret.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 256 * 1024 * 1024 },
      (error, key) => (error === null ? resolve(key) : reject(error)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url: the parameters travel with the hash. */
export async function hashSecret(secret: string, parameters = SCRYPT_PARAMETERS): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, parameters);
  const { N, r, p } = parameters;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with other parameters than today's, and should be made again. */
export function needsRehash(stored: string): boolean {
  const { N, r, p } = SCRYPT_PARAMETERS;
  return !stored.startsWith(`scrypt$${N}$${r}$${p}$`);
}
