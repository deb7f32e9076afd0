import { SCOPES, type Scope } from './scopes';

/** A member's role in a workspace (contract §11), most powerful first. */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const EDITOR: readonly Scope[] = [
  'account.read',
  'links.write',
  'spaces.write',
  'domains.write',
  'pixels.write',
  'stats.read',
  'webhooks.read',
  'keys.write',
  'members.read',
];

const VIEWER: readonly Scope[] = [
  'account.read',
  'links.read',
  'spaces.read',
  'domains.read',
  'pixels.read',
  'stats.read',
  'members.read',
];

/** The scopes of a member's session, by role: the contract's table. An admin differs from an owner in what it may do to owners. */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  owner: SCOPES,
  admin: SCOPES,
  editor: EDITOR,
  viewer: VIEWER,
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
