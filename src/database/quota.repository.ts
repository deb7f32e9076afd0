import { Injectable } from '@nestjs/common';
import type { ObjectLiteral } from 'typeorm';
import { quotaLock, quotaRefusal, type Quota, type QuotaKind } from '../common/account-quota';
import { Transactions, type Transaction } from './transactions';

/** A quota with the SQL that counts what the account holds, its own uncommitted rows included (`$1` the account). */
export interface CountedQuota extends Quota {
  count: string;
}

/**
 * The quota of an account's rows of `table` (those `where` the condition holds, if given), whose refusals name `name`
 * and call them `noun` (the table's name unless told).
 */
export function rowQuota(
  kind: QuotaKind,
  limit: number,
  table: string,
  { noun = table, where }: { noun?: string; where?: string } = {},
): CountedQuota {
  const counted = where === undefined ? '' : ` AND ${where}`;
  return {
    kind,
    limit,
    noun,
    field: 'name',
    count: `SELECT count(*)::int AS total FROM ${table} WHERE account_id = $1${counted}`,
  };
}

/** The account quotas' lock and count, in the transaction of the change they limit. */
@Injectable()
export class QuotaRepository {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Refuses, with a 422 on the quota's field, a transaction that leaves the account holding more than its limit.
   * It runs after the transaction's inserts, just before it commits: the lock makes every other transaction of
   * the account that reaches this point wait for this one to end, and then count what it committed, so that
   * parallel requests cannot pass the limit together. The lock is held only from here to the commit.
   */
  async check(tx: Transaction, quota: CountedQuota, accountId: number): Promise<void> {
    if (quota.limit === 0) return;
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [quotaLock(quota.kind), accountId]);
    const [{ total }] = await tx.query<{ total: number }[]>(quota.count, [accountId]);
    if (total > quota.limit) throw quotaRefusal(quota, total);
  }

  /** Saves `entity` and checks `quota` in one transaction, so that a row past the limit is never committed. */
  async saveWithin<T extends ObjectLiteral>(
    entity: T,
    quota: CountedQuota,
    accountId: number,
  ): Promise<void> {
    await this.transactions.run(async (tx) => {
      await tx.save(entity);
      await this.check(tx, quota, accountId);
    });
  }
}
