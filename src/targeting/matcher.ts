import { TargetsType } from './allowed-values';
import type { VisitorProfile } from './visitor';

export interface TargetRule {
  key: string;
  value: string;
}

/** The visitor's value for a targets type; rotations are chosen by the round-robin counter, not here. */
function visitorValue(type: TargetsType, visitor: VisitorProfile): string | null {
  switch (type) {
    case TargetsType.Continents:
      return visitor.continent;
    case TargetsType.Countries:
      return visitor.country;
    case TargetsType.OperatingSystems:
      return visitor.os;
    case TargetsType.Browsers:
      return visitor.browser;
    case TargetsType.Languages:
      return visitor.language;
    case TargetsType.Devices:
      return visitor.device;
    case TargetsType.Rotations:
      return null;
  }
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
