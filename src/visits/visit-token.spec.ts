import { issueVisitToken, verifyVisitToken } from './visit-token';

describe('visit tokens', () => {
  const hash = 'scrypt$16384$8$1$c2FsdA$aGFzaA';
  const now = 1_700_000_000_000;
  const lifetime = 10 * 60_000;

  it('have the form expiry.signature', () => {
    expect(issueVisitToken(7, hash, now)).toMatch(new RegExp(`^${now + lifetime}\\.[A-Za-z0-9_-]{43}$`));
  });

  it('are valid for the link and password they were issued for, for 10 minutes', () => {
    const token = issueVisitToken(7, hash, now);
    expect(verifyVisitToken(token, 7, hash, now)).toBe(true);
    expect(verifyVisitToken(token, 7, hash, now + lifetime)).toBe(true);
    expect(verifyVisitToken(token, 7, hash, now + lifetime + 1)).toBe(false);
  });

  it('are not valid for another link or another password hash', () => {
    const token = issueVisitToken(7, hash, now);
    expect(verifyVisitToken(token, 8, hash, now)).toBe(false);
    expect(verifyVisitToken(token, 7, `${hash}x`, now)).toBe(false);
  });

  it('cannot be extended by changing the expiry', () => {
    const [, signature] = issueVisitToken(7, hash, now).split('.');
    expect(verifyVisitToken(`${now + 2 * lifetime}.${signature}`, 7, hash, now + lifetime + 1)).toBe(false);
  });

  it.each([
    ['undefined', undefined],
    ['a number', 12345],
    ['an object', { token: 'x' }],
    ['empty', ''],
    ['no signature', `${now + lifetime}`],
    ['an empty signature', `${now + lifetime}.`],
    ['a non-numeric expiry', 'abc.def'],
    ['a negative expiry', `-${now + lifetime}.abc`],
    ['a huge expiry', `${'9'.repeat(16)}.abc`],
    ['garbage', '!!!.@@@'],
    ['a short signature', `${now + lifetime}.abc`],
  ])('refuse %s', (_case, token) => {
    expect(verifyVisitToken(token, 7, hash, now)).toBe(false);
  });

  it('refuse a signature with one character changed', () => {
    const token = issueVisitToken(7, hash, now);
    // A character inside the signature: every one of its bits is signature (the last one carries padding).
    const index = token.indexOf('.') + 10;
    const changed = `${token.slice(0, index)}${token[index] === 'A' ? 'z' : 'A'}${token.slice(index + 1)}`;
    expect(verifyVisitToken(changed, 7, hash, now)).toBe(false);
  });
});
