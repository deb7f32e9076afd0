import { periodOf } from './stats-page.service';

const DAY_MS = 86_400_000;
const today = new Date(Date.UTC(2026, 4, 31));

function span(range: { from: Date; to: Date }) {
  return { from: range.from.toISOString().slice(0, 10), to: range.to.toISOString().slice(0, 10) };
}

describe('periodOf', () => {
  it.each([
    ['7', '2026-05-25'],
    ['30', '2026-05-02'],
    ['90', '2026-03-03'],
  ] as const)('makes %s days end today, today included', (choice, from) => {
    expect(span(periodOf(choice, new Date('2020-01-01T00:00:00Z'), today))).toEqual({
      from,
      to: '2026-05-31',
    });
  });

  it('makes all time start on the day the link was made', () => {
    expect(span(periodOf('all', new Date('2026-05-31T18:00:00Z'), today))).toEqual({
      from: '2026-05-31',
      to: '2026-05-31',
    });
    expect(span(periodOf('all', new Date('2026-01-15T23:59:00Z'), today)).from).toBe('2026-01-15');
  });

  it('reaches back ten years at most, and never starts after today', () => {
    const old = periodOf('all', new Date('1990-01-01T00:00:00Z'), today);
    expect((old.to.getTime() - old.from.getTime()) / DAY_MS).toBe(3659);
    expect(span(periodOf('all', new Date('2027-01-01T00:00:00Z'), today))).toEqual({
      from: '2026-05-31',
      to: '2026-05-31',
    });
  });
});
