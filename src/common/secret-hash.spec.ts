import { HASHES_AT_ONCE, hashSecret, hashSecrets, needsRehash, verifySecret } from './secret-hash';

describe('secret hashing', () => {
  it('verifies the secret it hashed, and nothing else', async () => {
    const stored = await hashSecret('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifySecret('correct horse', stored)).resolves.toBe(true);
    await expect(verifySecret('correct horse ', stored)).resolves.toBe(false);
    await expect(verifySecret('', stored)).resolves.toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('still verifies a hash made with the earlier parameters, and says it needs making again', async () => {
    const earlier = await hashSecret('correct horse', { N: 16384, r: 8, p: 1 });
    expect(earlier).toMatch(/^scrypt\$16384\$8\$1\$/);
    await expect(verifySecret('correct horse', earlier)).resolves.toBe(true);
    await expect(verifySecret('wrong horse', earlier)).resolves.toBe(false);
    expect(needsRehash(earlier)).toBe(true);
  });

  it('salts every hash', async () => {
    expect(await hashSecret('same')).not.toBe(await hashSecret('same'));
  });

  it('refuses a stored value of another scheme', async () => {
    await expect(verifySecret('x', 'plain$x')).resolves.toBe(false);
  });
});

describe('hashing many secrets', () => {
  // The module itself, whose `scrypt` the hashing code calls (an `import * as` namespace would be a copy).
  const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  const cheap = { N: 16, r: 1, p: 1 };

  /** The most scrypt computations that were under way at once while `work` ran. */
  async function mostAtOnce(work: () => Promise<unknown>): Promise<number> {
    const real = crypto.scrypt;
    let running = 0;
    let most = 0;
    const spy = jest.spyOn(crypto, 'scrypt').mockImplementation((...args: unknown[]) => {
      const done = args.pop() as (error: Error | null, key: Buffer) => void;
      running += 1;
      most = Math.max(most, running);
      (real as (...a: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
        // Held a little, as a real hash is, so that overlapping work shows.
        setTimeout(() => {
          running -= 1;
          done(error, key);
        }, 5);
      });
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return most;
  }

  it('hashes the secrets of one request side by side, in their order, each verifiable', async () => {
    const secrets = Array.from({ length: 6 }, (_, index) => `secret ${index}`);
    let hashes: string[] = [];
    const most = await mostAtOnce(async () => {
      hashes = await hashSecrets(secrets, cheap);
    });
    expect(most).toBe(HASHES_AT_ONCE);
    for (const [index, hash] of hashes.entries()) {
      await expect(verifySecret(secrets[index], hash)).resolves.toBe(true);
    }
  });

  it('never runs more hashes at once than it leaves threads to visitors, however many requests ask', async () => {
    const most = await mostAtOnce(() =>
      Promise.all([
        hashSecrets(['a', 'b', 'c', 'd'], cheap),
        hashSecrets(['e', 'f', 'g', 'h'], cheap),
        ...['i', 'j', 'k', 'l'].map((secret) => hashSecret(secret, cheap)),
      ]),
    );
    expect(most).toBe(HASHES_AT_ONCE);
    expect(HASHES_AT_ONCE).toBeLessThanOrEqual(2);
  });

  it('leaves a visitor’s check out of the count: it never waits for a hash to finish', async () => {
    const stored = await hashSecret('visitor', cheap);
    const most = await mostAtOnce(() =>
      Promise.all([hashSecrets(['a', 'b', 'c', 'd'], cheap), verifySecret('visitor', stored)]),
    );
    expect(most).toBe(HASHES_AT_ONCE + 1);
  });
});
