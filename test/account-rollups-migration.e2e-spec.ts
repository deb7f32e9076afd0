import { workspaceRollups } from './support/clicks';
import { beforeRollupsMigration } from './support/rollups-migration';

const ROLLUPS = 'AccountClickRollups1766260000000';

/**
 * The migration to workspace rollups, on a database as the service left it before: two workspaces, links with
 * clicks of several days, hours and values, and destinations (a link's own url, another's). It fills the
 * workspaces' rollups with the sums of their links'; from then on a click, a delete and a move keep them so; it
 * reverts to the schema of before, which records clicks as it did.
 */
describe('the migration to workspace rollups, on a populated database', () => {
  const migration = beforeRollupsMigration('shortlink_account_rollups', ROLLUPS);
  const { db, click } = migration;
  const accounts: number[] = [];
  const links: number[] = [];

  beforeAll(async () => {
    accounts.push(...(await migration.accounts(['Before workspace rollups', 'Another'])));
    links.push(
      ...(await migration.links([
        [accounts[0], 'one', null],
        [accounts[0], 'two', null],
        [accounts[0], 'three', null],
        [accounts[1], 'four', null],
      ])),
    );
    await migration.populate(links);
    await migration.apply();
  });

  it("fills each workspace's rollups with the sums of its links'", async () => {
    await migration.expectSums();
    const { stored } = await workspaceRollups(db(), accounts[0]);
    expect(stored.length).toBeGreaterThan(10);
    const [gb] = await db().query<{ clicks: number }[]>(
      `SELECT d.clicks::int FROM account_click_days d JOIN click_values v ON v.id = d.value
        WHERE d.account_id = $1 AND d.dimension = 2 AND d.day = '2026-10-03' AND v.value = 'GB'`,
      [accounts[0]],
    );
    expect(gb.clicks).toBe(3);
  });

  it('keeps them the sums through a click, a move to another workspace and a delete', async () => {
    await click(links[2], '2026-11-21T00:30:00Z', 'FR', 'Tablet');
    await migration.expectSums();
    await db().query('UPDATE links SET account_id = $2 WHERE id = $1', [links[1], accounts[1]]);
    const [counter] = await db().query<{ account_id: number }[]>(
      'SELECT account_id FROM link_counters WHERE link_id = $1',
      [links[1]],
    );
    expect(counter.account_id).toBe(accounts[1]);
    await migration.expectSums();
    await db().query('DELETE FROM links WHERE id = ANY($1::int[])', [[links[0], links[3]]]);
    await migration.expectSums();
    // Rows a delete left at zero are gone, not kept at 0.
    await migration.expectNoZeroRows('account');
  });

  it('reverts to the schema of before, whose clicks and deletes work as they did', async () => {
    await migration.undo();
    const [{ tables }] = await db().query<{ tables: number }[]>(
      `SELECT count(*)::int AS tables FROM information_schema.tables WHERE table_name LIKE 'account_click_%'`,
    );
    expect(tables).toBe(0);
    await click(links[2], '2026-11-22T00:00:00Z', 'FR', 'Tablet');
    const [{ clicks }] = await db().query<{ clicks: number }[]>(
      'SELECT sum(clicks)::int AS clicks FROM click_hours WHERE link_id = $1',
      [links[2]],
    );
    expect(clicks).toBe(3);
    await db().query('DELETE FROM links WHERE id = $1', [links[2]]);
    await migration.apply();
    await migration.expectSums();
  });
});
