/** The largest weight a rotation's destination may have (contract §13). */
export const MAX_ROTATION_WEIGHT = 100;

/** A rotation's destinations, each with its weight (absent: 1). */
export type Weighted = readonly { weight?: number }[];

/**
 * Which destination each turn of a round serves: every destination exactly its weight's number of turns, spread
 * through the round rather than in runs (the smooth weighted round robin: each turn, every destination earns its
 * weight, the one with most goes and pays back the round's length; the first of equals wins). Without weights, turn
 * `i` serves destination `i`, as rotations always did. Deterministic, so every instance serves turn `n` alike.
 */
export function rotationSchedule(targets: Weighted): number[] {
  const weights = targets.map((target) => target.weight ?? 1);
  const turns = weights.reduce((sum, weight) => sum + weight, 0);
  if (weights.every((weight) => weight === 1)) return weights.map((_weight, index) => index);
  const earned = weights.map(() => 0);
  const schedule: number[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    for (let index = 0; index < weights.length; index += 1) earned[index] += weights[index];
    let best = 0;
    for (let index = 1; index < weights.length; index += 1) if (earned[index] > earned[best]) best = index;
    earned[best] -= turns;
    schedule.push(best);
  }
  return schedule;
}
