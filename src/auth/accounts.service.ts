import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { PreparedStatements, type PreparedStatement } from '../database/prepared-statements';
import { Account } from './account.entity';
import { ApiKey } from './api-key.entity';
import { generateApiKey, hashApiKey, keyPrefix } from './api-key';
import type { ApiCaller } from './owner';
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

/** A key's columns that the lookup of every request reads beside its account's. */
interface KeyColumns {
  key_id: number;
  key_scopes: Scope[];
  key_space_ids: number[] | null;
  key_expires_at: Date | null;
  /** When the dashboard session the request came with ends; null for the key itself. */
  session_expires_at: Date | null;
  /** Whether `last_used_at` is older than this minute: the one write a key's requests make, once a minute. */
  key_used_stale: boolean;
  /** The dashboard session the request came with; null for the key itself. */
  session_id: number | null;
}

@Injectable()
export class AccountsService {
  /**
   * The account and key of a live key (not revoked, not expired), by the key's hash. Its columns are named, not
   * `a.*`: a prepared statement whose rows change shape (a column added by a migration while it runs) fails
   * instead of planning again.
   */
  private readonly callerOfKey: PreparedStatement;
  /**
   * The same for a live dashboard session (not expired) of a live key, by the hash of the session's token: a
   * session ends with its key.
   */
  private readonly callerOfSession: PreparedStatement;

  /** Keys whose last use was written this minute, by id: the minute (ms since the epoch). */
  private readonly usedMinute = new Map<number, number>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
  ) {
    const columns = dataSource.getMetadata(Account).columns.map((column) => `a."${column.databaseName}"`);
    const selected = `${columns.join(', ')}, k.id AS key_id, k.scopes AS key_scopes, k.space_ids AS key_space_ids,
                      k.expires_at AS key_expires_at, (k.last_used_at IS NULL OR k.last_used_at < date_trunc('minute', now())) AS key_used_stale`;
    const live = `k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`;
    this.callerOfKey = {
      name: 'caller_of_api_key',
      text: `SELECT ${selected}, NULL::int AS session_id, NULL::timestamptz AS session_expires_at
               FROM accounts a JOIN api_keys k ON k.account_id = a.id
              WHERE k.key_hash = $1 AND ${live}`,
    };
    this.callerOfSession = {
      name: 'caller_of_session',
      text: `SELECT ${selected}, s.id AS session_id, s.expires_at AS session_expires_at
               FROM api_sessions s JOIN api_keys k ON k.id = s.key_id JOIN accounts a ON a.id = k.account_id
              WHERE s.token_hash = $1 AND s.expires_at > now() AND ${live}`,
    };
  }

  /**
   * The caller of a live key, or null: one prepared statement, asked by every API request, so that a key revoked
   * or expired is refused by every instance from its next request on. The key's last use is written when the one
   * stored is older than the current minute, at most once a minute per key and instance.
   */
  async findByApiKey(apiKey: string): Promise<ApiCaller | null> {
    return this.callerOf(this.callerOfKey, apiKey);
  }

  /** The caller of a live dashboard session: its key's, until the session or the key ends. */
  async findBySession(token: string): Promise<ApiCaller | null> {
    return this.callerOf(this.callerOfSession, token);
  }

  private async callerOf(statement: PreparedStatement, secret: string): Promise<ApiCaller | null> {
    const [row] = await this.statements.query<Record<string, unknown> & KeyColumns>(statement, [
      hashApiKey(secret),
    ]);
    if (row === undefined) return null;
    const metadata = this.dataSource.getMetadata(Account);
    const account = metadata.create() as Account;
    for (const column of metadata.columns) column.setEntityValue(account, row[column.databaseName]);
    if (row.key_used_stale) await this.touch(row.key_id);
    return {
      account,
      keyId: row.key_id,
      granted: grantedScopes(row.key_scopes),
      owner: { accountId: account.id, spaceIds: row.key_space_ids },
      expiresAt: row.key_expires_at,
      sessionId: row.session_id,
      sessionExpiresAt: row.session_expires_at,
    };
  }

  /** Writes a key's last use, unless this instance did this minute; another instance's write this minute wins. */
  private async touch(keyId: number): Promise<void> {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    if (this.usedMinute.get(keyId) === minute) return;
    if (this.usedMinute.size > 10_000) this.usedMinute.clear();
    this.usedMinute.set(keyId, minute);
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < date_trunc('minute', now()))`,
      [keyId],
    );
  }

  async findById(id: number): Promise<Account | null> {
    return this.dataSource.getRepository(Account).findOneBy({ id });
  }

  async createAccount(name: string, email: string | null = null): Promise<IssuedKey> {
    return this.dataSource.transaction(async (manager) => {
      const account = await manager.getRepository(Account).save(manager.create(Account, { name, email }));
      return this.storeKey(manager, account, generateApiKey(), {});
    });
  }

  /** A new key of the account: a full key unless `grant` narrows it; in `manager`'s transaction when given. */
  async createKey(
    account: Account,
    grant: KeyGrant = {},
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IssuedKey> {
    return this.storeKey(manager, account, generateApiKey(), grant);
  }

  /** The account's live keys (revoked ones are gone; expired ones stay, to be seen), newest first. */
  async listKeys(accountId: number): Promise<ApiKey[]> {
    return this.dataSource
      .getRepository(ApiKey)
      .find({ where: { accountId, revokedAt: IsNull() }, order: { id: 'DESC' } });
  }

  /** A live key of the account by id, or null. */
  async findKey(accountId: number, id: number): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ id, accountId, revokedAt: IsNull() });
  }

  /** Changes what is given of an account's name and email. */
  async updateAccount(account: Account, changes: { name?: string; email?: string }): Promise<Account> {
    return this.dataSource.getRepository(Account).save(Object.assign(account, changes));
  }

  /** Revokes a live key; false when no live key has that value. */
  async revokeKey(apiKey: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ApiKey)
      .update({ keyHash: hashApiKey(apiKey), revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }

  /**
   * On the first start with an empty database, one account is made: with the operator's key, or a new one.
   * The table lock keeps replicas that start together from making one each.
   */
  async bootstrap(initialApiKey: string | undefined): Promise<IssuedKey | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE "accounts" IN SHARE ROW EXCLUSIVE MODE');
      if ((await manager.getRepository(Account).count()) > 0) return null;
      const account = await manager.getRepository(Account).save(manager.create(Account, { name: 'Default' }));
      return this.storeKey(manager, account, initialApiKey ?? generateApiKey(), {});
    });
  }

  private async storeKey(
    manager: EntityManager,
    account: Account,
    apiKey: string,
    grant: KeyGrant,
  ): Promise<IssuedKey> {
    const keys = manager.getRepository(ApiKey);
    const key = keys.create({
      accountId: account.id,
      keyHash: hashApiKey(apiKey),
      name: grant.name ?? 'Full access',
      prefix: keyPrefix(apiKey),
      scopes: [...(grant.scopes ?? SCOPES)],
      spaceIds: grant.spaceIds === undefined || grant.spaceIds === null ? null : [...grant.spaceIds],
      expiresAt: grant.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
    });
    await keys.insert(key);
    return { account, key, apiKey };
  }
}
