import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityMetadata } from 'typeorm';
import { PreparedStatements, type PreparedStatement } from '../database/prepared-statements';
import type { Transaction } from '../database/transactions';
import { Account } from './account.entity';
import { ApiKey } from './api-key.entity';
import type { Role } from './roles';
import type { Scope } from './scopes';

/** A live key's account and the key's columns that the lookup of every request reads beside it. */
export interface CallerRow {
  account: Account;
  /** Null for a user's session, as are the key's other columns. */
  key_id: number | null;
  key_name: string | null;
  key_scopes: Scope[] | null;
  key_space_ids: number[] | null;
  key_expires_at: Date | null;
  /** When the dashboard session the request came with ends; null for the key itself. */
  session_expires_at: Date | null;
  /** Whether `last_used_at` is older than this minute: the one write a key's requests make, once a minute. */
  key_used_stale: boolean;
  /** The dashboard session the request came with; null for the key itself. */
  session_id: number | null;
  /** A user's session: the user and their role in the session's workspace; null otherwise. */
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
  role: Role | null;
  /** Whether a user's session began with a second factor. */
  second_factor: boolean | null;
}

/** A key's columns as it is made. */
export type NewKey = Pick<
  ApiKey,
  | 'accountId'
  | 'keyHash'
  | 'name'
  | 'prefix'
  | 'scopes'
  | 'spaceIds'
  | 'expiresAt'
  | 'lastUsedAt'
  | 'revokedAt'
>;

/** Accounts and their keys: the lookup of every request's key, and what makes and changes them. */
@Injectable()
export class AccountsRepository {
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
  private readonly accountMetadata: EntityMetadata;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
  ) {
    this.accountMetadata = dataSource.getMetadata(Account);
    const columns = this.accountMetadata.columns.map((column) => `a."${column.databaseName}"`);
    const live = `k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`;
    const key = `k.id AS key_id, k.name AS key_name, k.scopes AS key_scopes, k.space_ids AS key_space_ids,
                 k.expires_at AS key_expires_at,
                 (k.last_used_at IS NULL OR k.last_used_at < date_trunc('minute', now())) AS key_used_stale`;
    this.callerOfKey = {
      name: 'caller_of_api_key',
      text: `SELECT ${columns.join(', ')}, ${key}, NULL::int AS session_id, NULL::timestamptz AS session_expires_at,
                    NULL::int AS user_id, NULL AS user_name, NULL AS user_email, NULL AS role,
                    NULL::boolean AS second_factor
               FROM accounts a JOIN api_keys k ON k.account_id = a.id
              WHERE k.key_hash = $1 AND ${live}`,
    };
    // A key's session ends with its key; a user's, with their membership of the session's workspace.
    this.callerOfSession = {
      name: 'caller_of_session',
      text: `SELECT ${columns.join(', ')}, ${key}, s.id AS session_id, s.expires_at AS session_expires_at,
                    u.id AS user_id, u.name AS user_name, u.email AS user_email, m.role AS role,
                    s.second_factor
               FROM api_sessions s
               LEFT JOIN api_keys k ON k.id = s.key_id
               LEFT JOIN memberships m ON m.user_id = s.user_id AND m.account_id = s.account_id
               LEFT JOIN users u ON u.id = m.user_id
               JOIN accounts a ON a.id = coalesce(k.account_id, m.account_id)
              WHERE s.token_hash = $1 AND s.expires_at > now() AND (s.key_id IS NULL OR ${live})`,
    };
  }

  /** The account and key of a live key by the key's hash, or null: one prepared statement. */
  async callerOfKeyHash(keyHash: string): Promise<CallerRow | null> {
    return this.callerOf(this.callerOfKey, keyHash);
  }

  /** The same for a live session of a live key, by the hash of the session's token. */
  async callerOfSessionHash(tokenHash: string): Promise<CallerRow | null> {
    return this.callerOf(this.callerOfSession, tokenHash);
  }

  /** Writes a key's last use, unless another instance did this minute. */
  async touchKey(keyId: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < date_trunc('minute', now()))`,
      [keyId],
    );
  }

  async findAccount(id: number): Promise<Account | null> {
    return this.dataSource.getRepository(Account).findOneBy({ id });
  }

  /** Inserts a new account, in `tx` when given. */
  async insertAccount(
    fields: { name: string; email?: string | null },
    tx: Transaction = this.dataSource.manager,
  ): Promise<Account> {
    return tx.getRepository(Account).save(tx.create(Account, fields));
  }

  /** Changes what is given of an account's columns. */
  async saveAccount(account: Account): Promise<Account> {
    return this.dataSource.getRepository(Account).save(account);
  }

  /**
   * Locks the accounts against another first start's insert until `tx` ends: replicas that start together on an
   * empty database make one account between them.
   */
  async lockForFirstAccount(tx: Transaction): Promise<void> {
    await tx.query('LOCK TABLE "accounts" IN SHARE ROW EXCLUSIVE MODE');
  }

  async firstAccountId(): Promise<number | null> {
    const [first] = await this.dataSource
      .getRepository(Account)
      .find({ select: { id: true }, order: { id: 'ASC' }, take: 1 });
    return first?.id ?? null;
  }

  async countAccounts(tx: Transaction): Promise<number> {
    return tx.getRepository(Account).count();
  }

  /** Inserts a new key, in `tx` when given. */
  async insertKey(fields: NewKey, tx: Transaction = this.dataSource.manager): Promise<ApiKey> {
    const keys = tx.getRepository(ApiKey);
    const key = keys.create(fields);
    await keys.insert(key);
    return key;
  }

  /** The account's live keys (revoked ones are gone; expired ones stay, to be seen), newest first. */
  async liveKeys(accountId: number): Promise<ApiKey[]> {
    return this.dataSource
      .getRepository(ApiKey)
      .find({ where: { accountId, revokedAt: IsNull() }, order: { id: 'DESC' } });
  }

  /** A live key of the account by id, or null. */
  async findLiveKey(accountId: number, id: number): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ id, accountId, revokedAt: IsNull() });
  }

  /** Revokes the live key of this hash; false when there is none. */
  async revokeByHash(keyHash: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ApiKey)
      .update({ keyHash, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }

  private async callerOf(statement: PreparedStatement, hash: string): Promise<CallerRow | null> {
    const [row] = await this.statements.query<Record<string, unknown> & CallerRow>(statement, [hash]);
    if (row === undefined) return null;
    const account = this.accountMetadata.create() as Account;
    for (const column of this.accountMetadata.columns)
      column.setEntityValue(account, row[column.databaseName]);
    row.account = account;
    return row;
  }
}
