import { QuotaKind } from '../common/account-quota';
import { ValidationFailedException } from '../common/exceptions';
import { QuotaRepository, type CountedQuota } from './quota.repository';
import type { Transaction, Transactions } from './transactions';

/** A manager that answers every count with `total` and records what it was asked. */
function managerCounting(total: number): { manager: Transaction; queries: string[] } {
  const queries: string[] = [];
  const manager = {
    query: (sql: string) => {
      queries.push(sql);
      return Promise.resolve(sql.includes('pg_advisory_xact_lock') ? [{}] : [{ total }]);
    },
  } as unknown as Transaction;
  return { manager, queries };
}

const quota = (limit: number): CountedQuota => ({
  kind: QuotaKind.Spaces,
  limit,
  noun: 'spaces',
  field: 'name',
  count: 'SELECT count(*)::int AS total FROM spaces WHERE account_id = $1',
});

const quotas = new QuotaRepository({} as Transactions);

describe('QuotaRepository.check', () => {
  it('neither locks nor counts when the limit is 0 (none)', async () => {
    const { manager, queries } = managerCounting(1_000_000);

    await quotas.check(manager, quota(0), 7);

    expect(queries).toEqual([]);
  });

  it('locks the account before it counts, and lets a total at the limit through', async () => {
    const { manager, queries } = managerCounting(3);

    await quotas.check(manager, quota(3), 7);

    expect(queries).toEqual([
      'SELECT pg_advisory_xact_lock($1, $2)',
      'SELECT count(*)::int AS total FROM spaces WHERE account_id = $1',
    ]);
  });

  it('refuses a total past the limit on the quota’s field', async () => {
    const { manager } = managerCounting(4);

    const refusal = await quotas.check(manager, quota(3), 7).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(ValidationFailedException);
    expect((refusal as ValidationFailedException).fields).toEqual({
      name: ['The account may hold at most 3 spaces; this would make 4.'],
    });
  });
});
