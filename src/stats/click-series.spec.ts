import { seriesUnit } from './click-series';

const DAY_MS = 86_400_000;
const to = new Date(Date.UTC(2026, 4, 31));

function days(count: number) {
  return { from: new Date(to.getTime() - (count - 1) * DAY_MS), to };
}

describe('seriesUnit', () => {
  it.each([
    [1, 'hour'],
    [2, 'day'],
    [30, 'day'],
    [90, 'day'],
    [91, 'month'],
    [730, 'month'],
    [731, 'year'],
    [3660, 'year'],
  ])('counts a range of %i days by the %s', (count, unit) => {
    expect(seriesUnit(days(count))).toBe(unit);
  });
});
