import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import type { LinkData } from './support/links';
import { onRealPostgres } from './support/test-database';

/** A URL of about 2,000 characters, the longest kind a link takes, different for every item. */
function longUrl(request: number, index: number): string {
  return `https://example.com/${request}/${index}/${'a'.repeat(1980)}`;
}

describe('Link counts under parallel writes of one account', () => {
  let t: TestApp;
  const { call, json } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The account's links as the list counts them, as `link_counts` sums them and as the table holds them. */
  async function linkCounts(account: TestAccount): Promise<number[]> {
    const list = await call(account, 'get', '/api/v1/links');
    const [row] = await t.dataSource.query<{ summed: number; counted: number }[]>(
      `SELECT (SELECT COALESCE(sum(links), 0)::int FROM link_counts WHERE account_id = $1) AS summed,
              (SELECT count(*)::int FROM links WHERE account_id = $1) AS counted`,
      [account.id],
    );
    return [(list.body as { meta: { total: number } }).meta.total, row.summed, row.counted];
  }

  // The embedded database serves one session at a time: parallel transactions queue there by design.
  (onRealPostgres() ? it : it.skip)(
    'runs four bulks of 1,000 long links side by side: all succeed and the counts are exact',
    async () => {
      const owner = await createAccount(t);
      const responses = await Promise.all(
        [0, 1, 2, 3].map((request) =>
          json(owner, 'post', '/api/v1/links/bulk', {
            links: Array.from({ length: 1000 }, (_, index) => ({ url: longUrl(request, index) })),
          }),
        ),
      );

      // A refusal's body says why.
      expect(
        responses.map((response): unknown[] => [
          response.status,
          response.status === 201 ? '' : response.body,
        ]),
      ).toEqual(Array<unknown>(4).fill([201, '']));
      for (const response of responses) expect(response.body.data as LinkData[]).toHaveLength(1000);
      expect(await linkCounts(owner)).toEqual([4000, 4000, 4000]);
    },
  );

  it('keeps the counts exact through moves and deletes in one transaction, and after a rollback', async () => {
    const owner = await createAccount(t);
    const created = await json(owner, 'post', '/api/v1/links/bulk', {
      links: Array.from({ length: 5 }, (_, index) => ({ url: `https://example.com/${index}`, title: 'T' })),
    });
    const ids = (created.body.data as LinkData[]).map((link) => link.id);

    await t.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE links SET disabled = true WHERE id = ANY ($1)', [ids.slice(0, 2)]);
      await manager.query('DELETE FROM links WHERE id = $1', [ids[4]]);
    });
    await t.dataSource
      .transaction(async (manager) => {
        await manager.query('DELETE FROM links WHERE id = ANY ($1)', [ids]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);

    expect(await linkCounts(owner)).toEqual([4, 4, 4]);
    const rows = await t.dataSource.query<{ disabled: boolean; links: number }[]>(
      'SELECT disabled, links FROM link_counts WHERE account_id = $1 ORDER BY disabled',
      [owner.id],
    );
    expect(rows).toEqual([
      { disabled: false, links: 2 },
      { disabled: true, links: 2 },
    ]);
    const [{ pending }] = await t.dataSource.query<{ pending: number }[]>(
      'SELECT count(*)::int AS pending FROM link_count_changes',
    );
    expect(pending).toBe(0);
  });
});
