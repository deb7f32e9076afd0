import { rotationSchedule } from './rotation';

const counts = (schedule: number[], destinations: number) =>
  Array.from({ length: destinations }, (_, index) => schedule.filter((served) => served === index).length);

describe('rotationSchedule', () => {
  it('serves turn i to destination i where no destination has a weight, as rotations always did', () => {
    expect(rotationSchedule([{}, {}, {}])).toEqual([0, 1, 2]);
  });

  it('gives every destination exactly its weight of turns in a round', () => {
    const schedule = rotationSchedule([{ weight: 70 }, { weight: 30 }]);
    expect(schedule).toHaveLength(100);
    expect(counts(schedule, 2)).toEqual([70, 30]);
    const three = rotationSchedule([{ weight: 5 }, {}, { weight: 2 }]);
    expect(counts(three, 3)).toEqual([5, 1, 2]);
    expect(three).toHaveLength(8);
  });

  it('spreads the turns through the round rather than serving one destination in a run', () => {
    expect(rotationSchedule([{ weight: 2 }, { weight: 1 }])).toEqual([0, 1, 0]);
    const schedule = rotationSchedule([{ weight: 70 }, { weight: 30 }]);
    // The lighter destination never waits more than three turns of the heavier one.
    let run = 0;
    let longest = 0;
    for (const served of schedule) {
      run = served === 0 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    expect(longest).toBeLessThanOrEqual(3);
  });

  it('is the same on every call, so every instance serves a turn alike', () => {
    const weights = [{ weight: 13 }, { weight: 100 }, { weight: 1 }, { weight: 57 }];
    expect(rotationSchedule(weights)).toEqual(rotationSchedule(weights));
    expect(counts(rotationSchedule(weights), 4)).toEqual([13, 100, 1, 57]);
  });
});
