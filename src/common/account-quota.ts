import type { EntityManager, ObjectLiteral, Repository } from 'typeorm';
import { ValidationFailedException } from './exceptions';

/** What an account holds a limited number of; each has its own advisory lock, so one never waits on another. */
export enum QuotaKind {
  Links = 1,
  Spaces = 2,
  Domains = 3,
  Pixels = 4,
  Keys = 5,
  Webhooks = 6,
}

/** The first key of the quota locks (`pg_advisory_xact_lock(QUOTA_LOCK + kind, account)`). */
const QUOTA_LOCK = 0x51756f00;

export interface Quota {
  kind: QuotaKind;
  /** The most the account may hold; 0 for no limit. */
  limit: number;
  /** How the resource is named in the message: `links`. */
  noun: string;
  /** The field the refusal names. */
  field: string;
  /** SQL that counts what the account holds, its own uncommitted rows included (`$1` the account). */
  count: string;
}

/**
 * Refuses, with a 422 on the quota's field, a transaction that leaves the account holding more than its limit. It
 * runs after the transaction's inserts, just before it commits: the lock makes every other transaction of the
 * account that reaches this point wait for this one to end, and then count what it committed, so that parallel
 * requests cannot pass the limit together. The lock is held only from here to the commit.
 */
export async function checkQuota(manager: EntityManager, quota: Quota, accountId: number): Promise<void> {
  if (quota.limit === 0) return;
  await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [quotaLock(quota.kind), accountId]);
  const [{ total }] = await manager.query<{ total: number }[]>(quota.count, [accountId]);
  if (total > quota.limit) throw quotaRefusal(quota, total);
}

/** The second key of an account's lock of one kind of quota (the first is the account). */
export function quotaLock(kind: QuotaKind): number {
  return QUOTA_LOCK + kind;
}

/** The 422 of a change that would leave the account holding `total`, past its limit. */
export function quotaRefusal(quota: Omit<Quota, 'count'>, total: number): ValidationFailedException {
  return ValidationFailedException.of(
    quota.field,
    `The account may hold at most ${quota.limit} ${quota.noun}; this would make ${total}.`,
  );
}

/** The quota of an account's rows of `table` (spaces, domains, pixels), whose create refusals name `name`. */
export function rowQuota(kind: QuotaKind, limit: number, table: string): Quota {
  return {
    kind,
    limit,
    noun: table,
    field: 'name',
    count: `SELECT count(*)::int AS total FROM ${table} WHERE account_id = $1`,
  };
}

/** Saves `entity` and checks `quota` in one transaction, so that a row past the limit is never committed. */
export async function saveWithinQuota<T extends ObjectLiteral>(
  repository: Repository<T>,
  entity: T,
  quota: Quota,
  accountId: number,
): Promise<void> {
  await repository.manager.transaction(async (manager) => {
    await manager.save(entity);
    await checkQuota(manager, quota, accountId);
  });
}
