import { grantedScopes, inScopeOrder, isScope, SCOPES, scopesBeyond } from './scopes';

describe('scopes', () => {
  it('writes any list of scopes once each, in the order of the list of every scope', () => {
    expect(inScopeOrder(['keys.write', 'links.read', 'keys.write', 'account.read'])).toEqual([
      'account.read',
      'links.read',
      'keys.write',
    ]);
    expect(inScopeOrder(new Set([...SCOPES].reverse()))).toEqual([...SCOPES]);
    expect(inScopeOrder([])).toEqual([]);
  });

  it('grants the read of every write it holds, and nothing else', () => {
    expect([...grantedScopes(['links.write', 'stats.read'])].sort()).toEqual([
      'links.read',
      'links.write',
      'stats.read',
    ]);
  });

  it('names what a key asks beyond what its maker holds, reads of its writes included, in order', () => {
    const held = grantedScopes(['links.read', 'spaces.write']);
    expect(scopesBeyond(held, ['keys.write', 'links.write', 'spaces.read'])).toEqual([
      'links.write',
      'keys.read',
      'keys.write',
    ]);
    expect(scopesBeyond(held, ['spaces.write', 'links.read'])).toEqual([]);
  });

  it('knows a scope only as it is written', () => {
    expect(isScope('links.read')).toBe(true);
    expect(isScope('links.READ')).toBe(false);
    expect(isScope('links')).toBe(false);
    expect(isScope(7)).toBe(false);
  });
});
