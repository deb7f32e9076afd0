import { ValidationFailedException } from '../common/exceptions';
import { parseDay } from '../common/validation';
import { clickBucket, dayOf, DEFAULT_RANGE_DAYS, defaultOrder, statsRange } from './stats.service';

const DAY_MS = 86_400_000;
const utc = (day: string) => new Date(`${day}T00:00:00.000Z`);

function fieldsOf(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedException);
    return (error as ValidationFailedException).fields;
  }
  throw new Error('expected a validation error');
}

describe('parseDay', () => {
  it.each([
    ['2026-01-31', utc('2026-01-31')],
    ['2024-02-29', utc('2024-02-29')],
    [' 2026-03-01 ', utc('2026-03-01')],
  ])('reads %j as UTC midnight', (value, expected) => {
    expect(parseDay(value)).toEqual(expected);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-01-32',
    '26-01-01',
    '2026-1-1',
    '2026-01-01T00:00',
    'today',
  ])('leaves %j as it is, for the validator to refuse', (value) => {
    expect(parseDay(value)).toBe(value);
  });

  it('reads an empty value as absent, and leaves non-strings alone', () => {
    expect(parseDay('')).toBeNull();
    expect(parseDay('  ')).toBeNull();
    expect(parseDay(undefined)).toBeUndefined();
    expect(parseDay(['2026-01-01'])).toEqual(['2026-01-01']);
  });
});

describe('statsRange', () => {
  it('takes both days as given, both included', () => {
    expect(statsRange(utc('2026-01-10'), utc('2026-01-14'))).toEqual({
      from: utc('2026-01-10'),
      to: utc('2026-01-14'),
    });
    expect(statsRange(utc('2026-01-10'), utc('2026-01-10'))).toEqual({
      from: utc('2026-01-10'),
      to: utc('2026-01-10'),
    });
  });

  it('starts 29 days before the end when only the end is given', () => {
    expect(DEFAULT_RANGE_DAYS).toBe(30);
    expect(statsRange(null, utc('2026-01-31'))).toEqual({ from: utc('2026-01-02'), to: utc('2026-01-31') });
  });

  it('ends today (UTC) by default', () => {
    const now = new Date();
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    expect(statsRange(undefined, undefined)).toEqual({
      from: new Date(today.getTime() - 29 * DAY_MS),
      to: today,
    });
    expect(statsRange(utc('2020-01-01'), null)).toEqual({ from: utc('2020-01-01'), to: today });
  });

  it('refuses a start after the end, naming from', () => {
    expect(fieldsOf(() => statsRange(utc('2026-03-02'), utc('2026-03-01')))).toEqual({
      from: ['The from field must be a date before or equal to to.'],
    });
  });

  it('starts at the given first day when only the end is given, and no later than the end', () => {
    expect(statsRange(null, utc('2026-01-31'), utc('2025-06-01'))).toEqual({
      from: utc('2025-06-01'),
      to: utc('2026-01-31'),
    });
    expect(statsRange(null, utc('2026-01-31'), utc('2026-02-10'))).toEqual({
      from: utc('2026-01-31'),
      to: utc('2026-01-31'),
    });
    // A start that is given wins, and is checked.
    expect(statsRange(utc('2026-01-30'), utc('2026-01-31'), utc('2020-01-01')).from).toEqual(
      utc('2026-01-30'),
    );
  });

  it("refuses more than phpShort's 36500 days, and takes 36500", () => {
    const from = utc('1926-01-01');
    expect(statsRange(from, new Date(from.getTime() + 36_499 * DAY_MS)).from).toEqual(from);
    expect(fieldsOf(() => statsRange(from, new Date(from.getTime() + 36_500 * DAY_MS)))).toEqual({
      from: ['The range must not be longer than 36500 days.'],
    });
  });
});

describe('clickBucket', () => {
  it.each([
    ['2026-01-10', '2026-01-10', 'hour'],
    ['2026-01-10', '2026-01-11', 'day'],
    ['2026-01-01', '2026-03-31', 'day'],
    ['2026-01-01', '2026-04-01', 'month'],
    ['2025-01-01', '2026-12-31', 'month'],
    ['2025-01-01', '2027-01-01', 'year'],
  ])('%s to %s: per %s, as phpShort counts', (from, to, bucket) => {
    expect(clickBucket({ from: utc(from), to: utc(to) })).toBe(bucket);
  });
});

describe('defaultOrder', () => {
  it('lists clicks over time oldest first, and other values most frequent first', () => {
    expect(defaultOrder('click')).toEqual({ sortBy: 'value', direction: 'asc' });
    expect(defaultOrder('clicks')).toEqual({ sortBy: 'value', direction: 'asc' });
    expect(defaultOrder('city')).toEqual({ sortBy: 'count', direction: 'desc' });
  });
});

describe('dayOf', () => {
  it('is the UTC day of a moment', () => {
    expect(dayOf(new Date('2026-01-10T23:59:59.999Z'))).toEqual(utc('2026-01-10'));
    expect(dayOf(new Date('2026-01-11T00:00:00Z'))).toEqual(utc('2026-01-11'));
  });
});
