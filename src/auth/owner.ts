import type { Scope } from './scopes';
import type { Account } from './account.entity';
import type { Role } from './roles';

/**
 * Whose resources a request may reach: one account's, and, for a key restricted to spaces, only those spaces and
 * the links in them. Services take it where they took the account's id, so that a restriction is applied in the
 * one place ownership is.
 */
export interface Owner {
  readonly accountId: number;
  /** The spaces a restricted key may reach, in id order; null for every space of the account (and no space). */
  readonly spaceIds: readonly number[] | null;
}

/** The whole account: the CLI's work, and every key without a restriction. */
export function wholeAccount(accountId: number): Owner {
  return { accountId, spaceIds: null };
}

/** Whether the owner may reach what is filed under `spaceId` (null: no space). */
export function reachesSpace(owner: Owner, spaceId: number | null): boolean {
  return owner.spaceIds === null || (spaceId !== null && owner.spaceIds.includes(spaceId));
}

/** The person behind a user's session. */
export interface CallerUser {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  /** Their role in the session's workspace. */
  readonly role: Role;
}

/**
 * Who a request was authenticated as, and what it may do: a key (itself, or the dashboard session it was exchanged
 * for), or a user's session in one of their workspaces, whose scopes are their role's.
 */
export interface ApiCaller {
  readonly account: Account;
  /** The key; null for a user's session. */
  readonly keyId: number | null;
  readonly keyName: string | null;
  /** The person; null for a key. */
  readonly user: CallerUser | null;
  /** Its scopes with the reads its writes include. */
  readonly granted: ReadonlySet<Scope>;
  readonly owner: Owner;
  /**
   * When its key stops working; null for never (and for a person). A session's own end is not folded in: the no-escalation rule
   * compares keys with keys, and a session's end bounds that session alone.
   */
  readonly expiresAt: Date | null;
  /** The dashboard session the request came with (see sessions/); null when it came with the key itself. */
  readonly sessionId: number | null;
  /** When that session ends; null when the request came with the key itself. */
  readonly sessionExpiresAt: Date | null;
}
