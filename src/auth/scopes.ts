/**
 * What a key or a member may do, route by route (contract §9, §11). A `.write` scope includes its `.read`: a key that may change
 * links may read them.
 */
export const SCOPES = [
  'account.read',
  'links.read',
  'links.write',
  'spaces.read',
  'spaces.write',
  'domains.read',
  'domains.write',
  'pixels.read',
  'pixels.write',
  'stats.read',
  'webhooks.read',
  'webhooks.write',
  'keys.read',
  'keys.write',
  'members.read',
  'members.write',
  'audit.read',
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN = new Set<string>(SCOPES);

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && KNOWN.has(value);
}

/** The `.read` a `.write` includes, or null. */
function readOf(scope: Scope): Scope | null {
  if (!scope.endsWith('.write')) return null;
  const read = `${scope.slice(0, -'.write'.length)}.read`;
  return isScope(read) ? read : null;
}

/** Everything a key holding `scopes` may do: the scopes themselves and the reads their writes include. */
export function grantedScopes(scopes: Iterable<Scope>): ReadonlySet<Scope> {
  const granted = new Set<Scope>();
  for (const scope of scopes) {
    granted.add(scope);
    const read = readOf(scope);
    if (read !== null) granted.add(read);
  }
  return granted;
}

/** The scopes given, each once, in the order of {@link SCOPES}: the order of every list of scopes the API writes. */
export function inScopeOrder(scopes: Iterable<Scope>): Scope[] {
  const given = new Set(scopes);
  return SCOPES.filter((scope) => given.has(scope));
}

/** The scopes of `wanted` that `held` does not grant, in the order of {@link SCOPES}: empty when all are. */
export function scopesBeyond(held: ReadonlySet<Scope>, wanted: Iterable<Scope>): Scope[] {
  return inScopeOrder([...grantedScopes(wanted)].filter((scope) => !held.has(scope)));
}
