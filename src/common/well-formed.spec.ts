import { wellFormed } from './well-formed';

describe('wellFormed', () => {
  it('keeps text without lone surrogates as it is, pairs included', () => {
    expect(wellFormed('Café 😀 done')).toBe('Café 😀 done');
  });

  it('writes each lone surrogate as U+FFFD, as UTF-8 encoding does', () => {
    for (const text of ['a\ud800b', 'a\udc00b', '\ud83d', 'x\ude00\ud83d', '\ud800\ud800\udc00']) {
      expect(wellFormed(text)).toBe(Buffer.from(text, 'utf8').toString('utf8'));
    }
  });
});
