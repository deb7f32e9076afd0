import { substringPattern } from './search';

describe('substringPattern', () => {
  it('wraps a plain term in %', () => {
    expect(substringPattern('abc')).toBe('%abc%');
  });

  it('matches everything for an empty term', () => {
    expect(substringPattern('')).toBe('%%');
  });

  it.each([
    ['50%', '%50\\%%'],
    ['a_b', '%a\\_b%'],
    ['back\\slash', '%back\\\\slash%'],
    ['%_\\', '%\\%\\_\\\\%'],
  ])('escapes LIKE wildcards and the escape character in %p', (term, pattern) => {
    expect(substringPattern(term)).toBe(pattern);
  });

  it('leaves other special characters alone', () => {
    expect(substringPattern("it's [a]*.+?")).toBe("%it's [a]*.+?%");
  });
});
