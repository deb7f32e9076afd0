import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

/**
 * Slow hashes for the passwords of links (visitor and stats passwords): scrypt with N=2^14, r=8, p=5, one of
 * OWASP's equivalent settings for scrypt, the one with the least memory (16 MiB a hash, so the four hashing
 * threads fit a small container). A hash takes about 150 ms of a core. Hashes made with other parameters still verify, and are upgraded on use.
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

/**
 * Hashes made for the API that may run at once, in all: half of libuv's four threads (which `scrypt` runs on, with
 * DNS lookups and file reads), and half the cores. A visitor's password check is not counted: it always finds a
 * thread and a core that no link being written holds.
 */
export const HASHES_AT_ONCE = Math.max(1, Math.min(2, Math.floor(availableParallelism() / 2)));

/** Turns to run a hash, handed out in the order asked for, so that requests take turns. */
class HashTurns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= HASHES_AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The turn passes straight to the next in line, or is given back.
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}

const turns = new HashTurns();

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url: the parameters travel with the hash. */
export function hashSecret(secret: string, parameters = SCRYPT_PARAMETERS): Promise<string> {
  return turns.run(async () => {
    const salt = randomBytes(16);
    const key = await derive(secret, salt, parameters);
    const { N, r, p } = parameters;
    return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
  });
}

/**
 * The hashes of one request's secrets, in their order: side by side as far as the turns allow, and never more of
 * them waiting at once than can run, so that another request's hash is next in line after at most these.
 */
export async function hashSecrets(
  secrets: readonly string[],
  parameters = SCRYPT_PARAMETERS,
): Promise<string[]> {
  const hashes: string[] = new Array<string>(secrets.length);
  let next = 0;
  const worker = async () => {
    while (next < secrets.length) {
      const index = next;
      next += 1;
      hashes[index] = await hashSecret(secrets[index], parameters);
    }
  };
  await Promise.all(Array.from({ length: Math.min(HASHES_AT_ONCE, secrets.length) }, worker));
  return hashes;
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
