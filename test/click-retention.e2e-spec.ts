import { ClickPartitions, monthStart } from '../src/clicks/click-partitions';
import { ClickStore } from '../src/clicks/click-store.repository';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { createLink } from './support/visitors';

const DAY_MS = 86_400_000;

/**
 * CLICK_RETENTION_DAYS on a database of the test's own (it drops months of raw clicks, which other tests' clicks
 * would share): whole months past the retention go as partitions, stats and totals stay exact from the rollups,
 * and the export says where its raw clicks begin.
 */
describe('click retention', () => {
  let scratch: ScratchDatabase;
  let t: TestApp;
  let account: TestAccount;
  const now = new Date();
  /** Four months back: past a 30-day retention whatever today is. */
  const oldMonth = monthStart(now, -4);
  /** Six months back, a month without a partition of its own: its clicks wait in the default partition. */
  const olderMonth = monthStart(now, -6);
  const boundary = monthStart(new Date(now.getTime() - 30 * DAY_MS));

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_retention');
    t = await createTestApp({ DATABASE_URL: scratch.url, CLICK_RETENTION_DAYS: '30' });
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  function partitions(): Promise<string[]> {
    return t.dataSource
      .query<{ name: string }[]>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'click_events'::regclass ORDER BY 1`,
      )
      .then((rows) => rows.map((row) => row.name));
  }

  function partitionOf(month: Date): string {
    return `click_events_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
  }

  async function sumOf(linkId: number, name: string): Promise<number> {
    const response = await t
      .http()
      .get(`/api/v1/stats/${linkId}?name=${name}${name === 'click' ? '' : '&per_page=100'}`)
      .set('Authorization', account.auth);
    expect(response.status).toBe(200);
    return (response.body.data as { count: number }[]).reduce((sum, row) => sum + row.count, 0);
  }

  it('makes the partitions of this month and the next two before any click needs them', async () => {
    expect(await partitions()).toEqual(
      expect.arrayContaining([0, 1, 2].map((offset) => partitionOf(monthStart(now, offset)))),
    );
  });

  it('drops the months wholly past the retention, and the stats still count their clicks', async () => {
    const link = await createLink(t, account, { url: 'https://example.com/kept' });
    await t.dataSource.query(`UPDATE links SET created_at = $2 WHERE id = $1`, [
      link.id,
      olderMonth.toISOString(),
    ]);
    await t.dataSource.query('SELECT click_partition($1)', [oldMonth.toISOString()]);
    const at = (month: Date) => new Date(month.getTime() + 9 * DAY_MS + 3_600_000).toISOString();
    await t.dataSource.query(
      `INSERT INTO clicks (link_id, created_at, country) VALUES ($1, $2, 'GB'), ($1, $2, 'FR'), ($1, $3, 'GB'),
              ($1, now(), 'DE'), ($1, now(), NULL)`,
      [link.id, at(oldMonth), at(olderMonth)],
    );
    const before = { click: await sumOf(link.id, 'click'), country: await sumOf(link.id, 'country') };
    expect(before).toEqual({ click: 5, country: 5 });

    await t.app.get(ClickPartitions).maintain();

    const left = await partitions();
    expect(left).not.toContain(partitionOf(oldMonth));
    expect(left).toContain(partitionOf(monthStart(now)));
    const [raw] = await t.dataSource.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM clicks WHERE link_id = $1',
      [link.id],
    );
    expect(raw.count).toBe(2);
    expect({ click: await sumOf(link.id, 'click'), country: await sumOf(link.id, 'country') }).toEqual(
      before,
    );
    expect(await t.app.get(ClickStore).heldSince()).toEqual(boundary);

    const exported = await t.http().get(`/api/v1/stats/${link.id}/export`).set('Authorization', account.auth);
    expect(exported.status).toBe(200);
    expect(exported.headers['clicks-held-since']).toBe(boundary.toISOString().replace('.000Z', '.000000Z'));
    expect(exported.text.trim().split('\n')).toHaveLength(3);

    // A rebuild counts again what is held, and keeps the rollups of what is not.
    await expect(t.app.get(ClickStore).rebuild(link.id)).resolves.toEqual({ links: 1, clicks: 2 });
    expect({ click: await sumOf(link.id, 'click'), country: await sumOf(link.id, 'country') }).toEqual(
      before,
    );
  });

  it('says the raw clicks begin at the link’s creation while nothing was dropped after it', async () => {
    const link = await createLink(t, account, { url: 'https://example.com/new' });
    const exported = await t.http().get(`/api/v1/stats/${link.id}/export`).set('Authorization', account.auth);
    expect(exported.status).toBe(200);
    expect(exported.headers['clicks-held-since']).toBe(link.created_at);
  });
});
