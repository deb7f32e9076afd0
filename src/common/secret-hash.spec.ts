import { hashSecret, verifySecret } from './secret-hash';

describe('secret hashing', () => {
  it('verifies the secret it hashed, and nothing else', async () => {
    const stored = await hashSecret('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored).not.toContain('correct horse');
    await expect(verifySecret('correct horse', stored)).resolves.toBe(true);
    await expect(verifySecret('correct horse ', stored)).resolves.toBe(false);
    await expect(verifySecret('', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashSecret('same')).not.toBe(await hashSecret('same'));
  });

  it('refuses a stored value of another scheme', async () => {
    await expect(verifySecret('x', 'plain$x')).resolves.toBe(false);
  });
});
