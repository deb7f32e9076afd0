import { Injectable } from '@nestjs/common';
import { Transactions, type Transaction } from '../database/transactions';
import type { Account } from './account.entity';
import { AccountsRepository, type CallerRow } from './accounts.repository';
import type { ApiKey } from './api-key.entity';
import { generateApiKey, hashApiKey, keyPrefix } from './api-key';
import type { ApiCaller } from './owner';
import { ROLE_SCOPES, type Role } from './roles';
import { grantedScopes, SCOPES, type Scope } from './scopes';

export interface IssuedKey {
  account: Account;
  key: ApiKey;
  /** The secret itself: returned once, never stored. */
  apiKey: string;
}

/** What a new key may do; absent parts make a full key (every scope, every space, no expiry). */
export interface KeyGrant {
  name?: string;
  scopes?: readonly Scope[];
  spaceIds?: readonly number[] | null;
  expiresAt?: Date | null;
}

@Injectable()
export class AccountsService {
  /** Keys whose last use was written this minute, by id: the minute (ms since the epoch). */
  private readonly usedMinute = new Map<number, number>();

  constructor(
    private readonly repository: AccountsRepository,
    private readonly transactions: Transactions,
  ) {}

  /**
   * The caller of a live key, or null: one prepared statement, asked by every API request, so that a key revoked
   * or expired is refused by every instance from its next request on. The key's last use is written when the one
   * stored is older than the current minute, at most once a minute per key and instance.
   */
  async findByApiKey(apiKey: string): Promise<ApiCaller | null> {
    return this.callerOf(await this.repository.callerOfKeyHash(hashApiKey(apiKey)));
  }

  /** The caller of a live dashboard session: its key's, until the session or the key ends. */
  async findBySession(token: string): Promise<ApiCaller | null> {
    return this.callerOf(await this.repository.callerOfSessionHash(hashApiKey(token)));
  }

  private async callerOf(row: CallerRow | null): Promise<ApiCaller | null> {
    if (row === null) return null;
    const { account } = row;
    if (row.key_id !== null && row.key_used_stale) await this.touch(row.key_id);
    const user =
      row.user_id !== null && row.role !== null
        ? { id: row.user_id, name: row.user_name ?? '', email: row.user_email ?? '', role: row.role }
        : null;
    return {
      account,
      keyId: row.key_id,
      keyName: row.key_name,
      user,
      granted: grantedScopes(
        user !== null ? this.roleScopes(user.role, account, row) : (row.key_scopes ?? []),
      ),
      owner: { accountId: account.id, spaceIds: user !== null ? null : row.key_space_ids },
      expiresAt: row.key_expires_at,
      sessionId: row.session_id,
      sessionExpiresAt: row.session_expires_at,
    };
  }

  /**
   * A member's scopes: their role's, or none while their workspace requires a second factor their session did not
   * begin with (they may still reach their own account's routes, to turn two-factor on, and sign in again).
   */
  private roleScopes(role: Role, account: Account, row: CallerRow): readonly Scope[] {
    return account.requireTwoFactor && row.second_factor !== true ? [] : ROLE_SCOPES[role];
  }

  /** Writes a key's last use, unless this instance did this minute; another instance's write this minute wins. */
  private async touch(keyId: number): Promise<void> {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    if (this.usedMinute.get(keyId) === minute) return;
    if (this.usedMinute.size > 10_000) this.usedMinute.clear();
    this.usedMinute.set(keyId, minute);
    await this.repository.touchKey(keyId);
  }

  async findById(id: number): Promise<Account | null> {
    return this.repository.findAccount(id);
  }

  async createAccount(name: string, email: string | null = null): Promise<IssuedKey> {
    return this.transactions.run(async (tx) => {
      const account = await this.repository.insertAccount({ name, email }, tx);
      return this.storeKey(account, generateApiKey(), {}, tx);
    });
  }

  /** A new workspace without a key (a person's, who signs in), in `tx`. */
  async createWorkspace(name: string, tx: Transaction): Promise<Account> {
    return this.repository.insertAccount({ name }, tx);
  }

  /** A new key of the account: a full key unless `grant` narrows it; in the transaction `tx` when given. */
  async createKey(account: Account, grant: KeyGrant = {}, tx?: Transaction): Promise<IssuedKey> {
    return this.storeKey(account, generateApiKey(), grant, tx);
  }

  /** The account's live keys (revoked ones are gone; expired ones stay, to be seen), newest first. */
  async listKeys(accountId: number): Promise<ApiKey[]> {
    return this.repository.liveKeys(accountId);
  }

  /** A live key of the account by id, or null. */
  async findKey(accountId: number, id: number): Promise<ApiKey | null> {
    return this.repository.findLiveKey(accountId, id);
  }

  /** Changes what is given of an account's name and email. */
  async updateAccount(account: Account, changes: { name?: string; email?: string }): Promise<Account> {
    return this.repository.saveAccount(Object.assign(account, changes));
  }

  /** The first workspace made (the one the first start made): where single sign-on's new users join. */
  async firstWorkspaceId(): Promise<number | null> {
    return this.repository.firstAccountId();
  }

  /** Whether the workspace requires a second factor of its members' sign-ins. */
  async setRequireTwoFactor(account: Account, required: boolean): Promise<Account> {
    return this.repository.saveAccount(Object.assign(account, { requireTwoFactor: required }));
  }

  /** Revokes a live key; false when no live key has that value. */
  async revokeKey(apiKey: string): Promise<boolean> {
    return this.repository.revokeByHash(hashApiKey(apiKey));
  }

  /**
   * On the first start with an empty database, one account is made: with the operator's key, or a new one.
   * The table lock keeps replicas that start together from making one each.
   */
  async bootstrap(initialApiKey: string | undefined): Promise<IssuedKey | null> {
    return this.transactions.run(async (tx) => {
      await this.repository.lockForFirstAccount(tx);
      if ((await this.repository.countAccounts(tx)) > 0) return null;
      const account = await this.repository.insertAccount({ name: 'Default' }, tx);
      return this.storeKey(account, initialApiKey ?? generateApiKey(), {}, tx);
    });
  }

  private async storeKey(
    account: Account,
    apiKey: string,
    grant: KeyGrant,
    tx: Transaction | undefined,
  ): Promise<IssuedKey> {
    const key = await this.repository.insertKey(
      {
        accountId: account.id,
        keyHash: hashApiKey(apiKey),
        name: grant.name ?? 'Full access',
        prefix: keyPrefix(apiKey),
        scopes: [...(grant.scopes ?? SCOPES)],
        spaceIds: grant.spaceIds === undefined || grant.spaceIds === null ? null : [...grant.spaceIds],
        expiresAt: grant.expiresAt ?? null,
        lastUsedAt: null,
        revokedAt: null,
      },
      tx,
    );
    return { account, key, apiKey };
  }
}
