import type { Scope } from '../api/types';

/** Whether `scopes` allow `wanted`: a `.write` scope includes its `.read`, as the API grants it. */
export function hasScope(scopes: readonly Scope[], wanted: Scope): boolean {
  if (scopes.includes(wanted)) return true;
  return wanted.endsWith('.read') && scopes.includes(wanted.replace(/\.read$/, '.write') as Scope);
}
