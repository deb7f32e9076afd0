import type { FieldErrors } from '../common/exceptions';
import { TargetsType } from '../targeting/allowed-values';
import type { TargetDto } from './dto/target.dto';
import { addError, checkPeriod, checkTargeting, sent } from './link-rules';

function target(value: string, key?: string | null): TargetDto {
  return { key, value };
}

describe('checkPeriod', () => {
  const start = new Date('2026-01-01T10:00:00Z');
  const end = new Date('2026-01-02T10:00:00Z');

  it.each<[string, Date | null, Date | null, FieldErrors]>([
    ['no period', null, null, {}],
    ['both ends in order', start, end, {}],
    [
      'a start alone',
      start,
      null,
      {
        active_period_end_at: [
          'The active period end at field is required when active period start at is present.',
        ],
      },
    ],
    [
      'an end alone',
      null,
      end,
      {
        active_period_start_at: [
          'The active period start at field is required when active period end at is present.',
        ],
      },
    ],
    [
      'an end at the start',
      start,
      start,
      { active_period_end_at: ['The active period end at must be a date after active period start at.'] },
    ],
    [
      'an end before the start',
      end,
      start,
      { active_period_end_at: ['The active period end at must be a date after active period start at.'] },
    ],
  ])('%s', (_name, from, to, expected) => {
    const errors: FieldErrors = {};
    checkPeriod(from, to, errors);
    expect(errors).toEqual(expected);
  });
});

describe('checkTargeting', () => {
  it('stores no targeting when neither a type nor targets were sent', () => {
    const errors: FieldErrors = {};
    expect(checkTargeting(null, null, errors)).toEqual({ type: null, targets: null });
    expect(errors).toEqual({});
  });

  it('asks for the other half of a targeting sent alone', () => {
    const errors: FieldErrors = {};
    checkTargeting(null, [target('https://example.com/', 'US')], errors);
    checkTargeting(TargetsType.Countries, [], errors);
    expect(errors).toEqual({
      targets_type: ['The targets type field is required when targets is present.'],
      targets: ['The targets field is required when targets type is present.'],
    });
  });

  it('stores keys in their canonical form, and names each key that is missing or not allowed', () => {
    const errors: FieldErrors = {};
    const stored = checkTargeting(
      TargetsType.Countries,
      [
        target('https://example.com/us', 'us'),
        target('https://example.com/x', 'XX'),
        target('https://e.com/'),
      ],
      errors,
    );
    expect(stored.targets?.[0]).toEqual({ key: 'US', value: 'https://example.com/us' });
    expect(errors).toEqual({
      'targets.1.key': ['The selected key is invalid for countries.'],
      'targets.2.key': ['The key field is required.'],
    });
  });

  it('keeps no key for rotations', () => {
    const errors: FieldErrors = {};
    const stored = checkTargeting(TargetsType.Rotations, [target('https://a.example/', 'ignored')], errors);
    expect(stored).toEqual({
      type: TargetsType.Rotations,
      targets: [{ key: '', value: 'https://a.example/' }],
    });
    expect(errors).toEqual({});
  });
});

describe('addError and sent', () => {
  it('add a field error after those it has, and tell a field sent as null from one not sent', () => {
    const errors: FieldErrors = { name: ['first'] };
    addError(errors, 'name', 'second');
    addError(errors, 'url', 'third');
    expect(errors).toEqual({ name: ['first', 'second'], url: ['third'] });
    expect(sent(null)).toBe(true);
    expect(sent(undefined)).toBe(false);
  });
});
