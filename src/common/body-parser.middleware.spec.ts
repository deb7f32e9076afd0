import { nestsDeeperThan } from './body-parser.middleware';

describe('nestsDeeperThan', () => {
  it.each([
    ['a flat object', '{"a": 1}', 1, false],
    ['two levels at a limit of 2', '{"a": [1]}', 2, false],
    ['three levels at a limit of 2', '{"a": [[1]]}', 2, true],
    ['brackets inside a string', '{"a": "[[[[{{{{"}', 1, false],
    ['an escaped quote that does not end the string', '{"a": "\\"[[[["}', 1, false],
    ['an escaped backslash that does end it', '{"a": "\\\\", "b": [[1]]}', 2, true],
    ['siblings, which do not add up', '[[1], [2], [3], [4]]', 2, false],
  ])('%s', (_label, text, max, expected) => {
    expect(nestsDeeperThan(Buffer.from(text), max)).toBe(expected);
  });
});
