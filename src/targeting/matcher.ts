import { TargetsType } from './allowed-values';
import type { VisitorProfile } from './visitor';

export interface TargetRule {
  key: string;
  value: string;
}

/** The visitor's field each targets type matches; rotations are chosen by the round-robin counter, not here. */
const VISITOR_FIELD: Record<
  TargetsType,
  'continent' | 'country' | 'os' | 'browser' | 'language' | 'device' | null
> = {
  [TargetsType.Continents]: 'continent',
  [TargetsType.Countries]: 'country',
  [TargetsType.OperatingSystems]: 'os',
  [TargetsType.Browsers]: 'browser',
  [TargetsType.Languages]: 'language',
  [TargetsType.Devices]: 'device',
  [TargetsType.Rotations]: null,
};

/** The visitor's value for a targets type. */
function visitorValue(type: TargetsType, visitor: VisitorProfile): string | null {
  const field = VISITOR_FIELD[type];
  return field === null ? null : visitor[field];
}

/** Ubuntu is a Linux too: a Linux target takes Ubuntu visitors unless an Ubuntu target came first. */
function keyMatches(type: TargetsType, key: string, value: string): boolean {
  if (key === value) return true;
  return type === TargetsType.OperatingSystems && key === 'Linux' && value === 'Ubuntu';
}

/** The destination of the first target whose key matches the visitor, or null (then the link's own URL). */
export function matchTarget(
  type: TargetsType | null,
  targets: readonly TargetRule[] | null,
  visitor: VisitorProfile,
): string | null {
  if (type === null || targets === null || type === TargetsType.Rotations) return null;
  const value = visitorValue(type, visitor);
  if (value === null) return null;
  return targets.find((target) => keyMatches(type, target.key, value))?.value ?? null;
}
