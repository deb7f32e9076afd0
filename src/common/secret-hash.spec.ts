import { hashSecret, needsRehash, verifySecret } from './secret-hash';

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
