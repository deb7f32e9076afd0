import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BULK_BODY_LIMIT,
  BULK_BYTES_PER_SECOND,
  ByteRate,
  jsonOverrun,
  nestsDeeperThan,
} from './body-parser';

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

describe('jsonOverrun', () => {
  const limits = { depth: 32, items: 3 };
  const overrun = (text: string, values = 100) => jsonOverrun(Buffer.from(text), limits, { values });

  it.each([
    ['a list at the limit', '{"links": [{}, {}, {}]}'],
    ['commas inside strings', '{"links": ["a,b,c,d,e"]}'],
    ['short lists side by side', '{"a": [1, 2, 3], "b": [4, 5, 6]}'],
    ['an object with many members', '{"a": 1, "b": 2, "c": 3, "d": 4}'],
  ])('lets %s through', (_label, text) => {
    expect(overrun(text)).toBeNull();
  });

  it.each([
    ['a list past the limit', '{"links": [{}, {}, {}, {}]}', ['links']],
    [
      'a nested list, named with its path',
      '{"links": [{}, {"url": "x", "targets": [1, 2, 3, 4]}]}',
      ['links', '1', 'targets'],
    ],
    ['a key written with escapes, named as the parser reads it', '{"li\\u006eks": [1, 2, 3, 4]}', ['links']],
    ['a key after a value that holds brackets', '{"url": "[{", "pixel_ids": [1, 2, 3, 4]}', ['pixel_ids']],
    ['a list at the top', '[1, 2, 3, 4]', []],
  ])('names %s', (_label, text, field) => {
    expect(overrun(text)).toEqual({ limit: 'items', field });
  });

  it('stops at the first item past the limit, whatever follows', () => {
    expect(overrun(`{"links": [{}, {}, {}, {}, ${'{'.repeat(100)}`)).toEqual({
      limit: 'items',
      field: ['links'],
    });
  });

  it('counts the values of the whole text against the budget, and takes off what it read', () => {
    const text = '{"a": [1, 2], "b": [3, 4], "c": {"d": 5}}';
    const budget = { values: 100 };
    expect(jsonOverrun(Buffer.from(text), limits, budget)).toBeNull();
    expect(budget.values).toBe(100 - 8);
    expect(jsonOverrun(Buffer.from(text), limits, { values: 7 })).toEqual({ limit: 'values' });
  });

  it('finds nesting too deep', () => {
    expect(jsonOverrun(Buffer.from('[[[[1]]]]'), { depth: 3, items: 3 }, { values: 100 })).toEqual({
      limit: 'depth',
    });
  });
});

describe("the scaled profile's nginx", () => {
  /** Bytes of a size as nginx (`4m`) or body-parser (`4mb`) writes it: both count in powers of 1024. */
  const bytes = (size: string) => {
    const match = /^(\d+)([km]?)b?$/i.exec(size.trim());
    if (match === null) throw new Error(`Not a size: ${size}`);
    return Number(match[1]) * { '': 1, k: 1024, m: 1024 * 1024 }[match[2].toLowerCase() as '' | 'k' | 'm'];
  };

  it('lets through the largest body the service takes, so that the service answers past it', () => {
    const conf = readFileSync(join(__dirname, '../../deploy/nginx.conf'), 'utf8');
    const limits = [...conf.matchAll(/^\s*client_max_body_size\s+(\S+);/gm)].map((match) => match[1]);
    expect(limits).toHaveLength(1);
    expect(bytes(limits[0])).toBe(bytes(BULK_BODY_LIMIT));
  });
});

describe('ByteRate', () => {
  it('lets a tenth of a second of bytes through at once, then asks for the wait that the rest needs', () => {
    let now = 0;
    const rate = new ByteRate(1000, () => now);
    expect(rate.take(100)).toBe(0);
    // 100 bytes over: a tenth of a second at 1,000 a second.
    expect(rate.take(100)).toBe(100);
    now = 100;
    expect(rate.take(0)).toBe(0);
    expect(rate.take(50)).toBe(50);
  });

  it('refills at its rate, never past a tenth of a second of bytes however long it waited', () => {
    let now = 0;
    const rate = new ByteRate(10_000, () => now);
    expect(rate.take(1000)).toBe(0);
    now = 60_000;
    expect(rate.take(1000)).toBe(0);
    expect(rate.take(1)).toBeCloseTo(0.1, 5);
  });

  it('holds every request of the instance to one rate together: 2 MB in 16 MB/s take an eighth of a second', () => {
    let now = 0;
    const rate = new ByteRate(BULK_BYTES_PER_SECOND, () => now);
    let waited = 0;
    for (let read = 0; read < 2 * 1024 * 1024; read += 64 * 1024) {
      const wait = rate.take(64 * 1024);
      waited += wait;
      now += wait;
    }
    expect(waited).toBeCloseTo(125 - 100, 0);
  });
});
