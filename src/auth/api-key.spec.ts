import { generateApiKey, hashApiKey } from './api-key';

describe('generateApiKey', () => {
  it('is the lsk_ prefix and 32 random bytes in base64url', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^lsk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice('lsk_'.length), 'base64url')).toHaveLength(32);
  });

  it('never repeats itself', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey()));
    expect(keys.size).toBe(1000);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 of the key in lowercase hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the UTF-8 bytes of the key', () => {
    // sha256(0xc3 0xa9), not sha256(0xe9) (latin1).
    expect(hashApiKey('\u00e9')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it('gives different hashes to keys that differ in one character', () => {
    const key = generateApiKey();
    const other = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(other)).not.toBe(hashApiKey(key));
  });
});
