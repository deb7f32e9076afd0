import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { PreparedStatements, type PreparedStatement } from '../database/prepared-statements';
import { Account } from './account.entity';
import { ApiKey } from './api-key.entity';
import { generateApiKey, hashApiKey } from './api-key';

export interface IssuedKey {
  account: Account;
  /** The secret itself: returned once, never stored. */
  apiKey: string;
}

@Injectable()
export class AccountsService {
  /**
   * The account of a live key, by the key's hash. Its columns are named, not `a.*`: a prepared statement whose rows
   * change shape (a column added by a migration while it runs) fails instead of planning again.
   */
  private readonly accountOfKey: PreparedStatement;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
  ) {
    const columns = dataSource.getMetadata(Account).columns.map((column) => `a."${column.databaseName}"`);
    this.accountOfKey = {
      name: 'account_of_api_key',
      text: `SELECT ${columns.join(', ')} FROM accounts a JOIN api_keys k ON k.account_id = a.id
              WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    };
  }

  /**
   * The account of a live key, or null: one prepared statement, asked by every API request (a find with the key's
   * relation took two queries, each parsed and planned anew).
   */
  async findByApiKey(apiKey: string): Promise<Account | null> {
    const [row] = await this.statements.query<Record<string, unknown>>(this.accountOfKey, [
      hashApiKey(apiKey),
    ]);
    if (row === undefined) return null;
    const metadata = this.dataSource.getMetadata(Account);
    const account = metadata.create() as Account;
    for (const column of metadata.columns) column.setEntityValue(account, row[column.databaseName]);
    return account;
  }

  async findById(id: number): Promise<Account | null> {
    return this.dataSource.getRepository(Account).findOneBy({ id });
  }

  async createAccount(name: string, email: string | null = null): Promise<IssuedKey> {
    const apiKey = generateApiKey();
    return this.dataSource.transaction(async (manager) => {
      const account = await manager.getRepository(Account).save(manager.create(Account, { name, email }));
      await this.storeKey(manager, account.id, apiKey);
      return { account, apiKey };
    });
  }

  async createKey(account: Account): Promise<IssuedKey> {
    const apiKey = generateApiKey();
    await this.storeKey(this.dataSource.manager, account.id, apiKey);
    return { account, apiKey };
  }

  /** Changes what is given of an account's name and email; null when there is no such account. */
  async updateAccount(id: number, changes: { name?: string; email?: string }): Promise<Account | null> {
    const accounts = this.dataSource.getRepository(Account);
    const account = await accounts.findOneBy({ id });
    if (account === null) return null;
    return accounts.save(Object.assign(account, changes));
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
      const apiKey = initialApiKey ?? generateApiKey();
      const account = await manager.getRepository(Account).save(manager.create(Account, { name: 'Default' }));
      await this.storeKey(manager, account.id, apiKey);
      return { account, apiKey };
    });
  }

  private async storeKey(manager: EntityManager, accountId: number, apiKey: string): Promise<void> {
    await manager.getRepository(ApiKey).insert({ accountId, keyHash: hashApiKey(apiKey) });
  }
}
