import { beforeRollupsMigration } from './support/rollups-migration';

const ROLLUPS = 'SpaceClickRollups1766300000000';

/**
 * The migration to space rollups, on a database as the service left it before: two workspaces, spaces, links in
 * them and in none, clicks of several days, hours and values, and destinations (a link's own url, another's). It
 * gives every counter its link's space and fills the spaces' rollups with the sums of their links'; from then on a
 * click, a link made, moved (alone, several in one statement, to no space, to another workspace), a space deleted
 * and a link deleted keep them so; it reverts to the schema of before, which records clicks as it did.
 */
describe('the migration to space rollups, on a populated database', () => {
  const migration = beforeRollupsMigration('shortlink_space_rollups', ROLLUPS);
  const { db, click } = migration;
  const accounts: number[] = [];
  /** Spaces A and B of the first workspace, C of the second. */
  const spaces: number[] = [];
  const links: number[] = [];

  async function makeSpace(account: number, name: string): Promise<number> {
    const [{ id }] = await db().query<{ id: number }[]>(
      'INSERT INTO spaces (account_id, name) VALUES ($1, $2) RETURNING id',
      [account, name],
    );
    return id;
  }

  /** Each counter names its link's space, 0 for none. */
  async function expectCounterSpaces() {
    const [{ wrong }] = await db().query<{ wrong: number }[]>(
      `SELECT count(*)::int AS wrong FROM links l JOIN link_counters c ON c.link_id = l.id
        WHERE c.space_id <> COALESCE(l.space_id, 0)`,
    );
    expect(wrong).toBe(0);
  }

  /** A space's clicks of a country on a day, as its rollups hold them. */
  async function countryClicks(space: number, country: string, day: string): Promise<number | undefined> {
    const [row] = await db().query<{ clicks: number }[]>(
      `SELECT d.clicks::int FROM space_click_days d JOIN click_values v ON v.id = d.value
        WHERE d.space_id = $1 AND d.dimension = 2 AND d.day = $2 AND v.value = $3`,
      [space, day, country],
    );
    return row?.clicks;
  }

  beforeAll(async () => {
    accounts.push(...(await migration.accounts(['Before space rollups', 'Another'])));
    spaces.push(
      await makeSpace(accounts[0], 'A'),
      await makeSpace(accounts[0], 'B'),
      await makeSpace(accounts[1], 'C'),
    );
    links.push(
      ...(await migration.links([
        [accounts[0], 'one', spaces[0]],
        [accounts[0], 'two', spaces[0]],
        [accounts[0], 'three', spaces[1]],
        [accounts[0], 'four', null],
        [accounts[1], 'five', spaces[2]],
        [accounts[1], 'six', null],
      ])),
    );
    await migration.populate(links);
    await migration.apply();
  });

  it("gives each counter its link's space and fills each space's rollups with the sums of its links'", async () => {
    await expectCounterSpaces();
    await migration.expectSums();
    expect(await countryClicks(spaces[0], 'GB', '2026-10-03')).toBe(3);
    // The links in no space are counted under 0, each workspace's apart.
    const [none] = await db().query<{ clicks: number }[]>(
      `SELECT sum(clicks)::int AS clicks FROM space_click_hours WHERE account_id = $1 AND space_id = 0`,
      [accounts[0]],
    );
    expect(none.clicks).toBe(1);
  });

  it('keeps them the sums through clicks, links made, moved, a space deleted and a link deleted', async () => {
    await click(links[2], '2026-11-21T00:30:00Z', 'FR', 'Tablet');
    await migration.expectSums();
    const [made] = await migration.links([[accounts[0], 'seven', spaces[1]]]);
    links.push(made);
    await click(made, '2026-11-21T01:00:00Z', 'GB', 'Desktop');
    await expectCounterSpaces();
    await migration.expectSums();

    // One link to another space, then several in one statement, then one to none.
    await db().query('UPDATE links SET space_id = $2 WHERE id = $1', [links[1], spaces[1]]);
    await expectCounterSpaces();
    await migration.expectSums();
    expect(await countryClicks(spaces[0], 'GB', '2026-10-03')).toBe(2);
    await db().query('UPDATE links SET space_id = $2 WHERE id = ANY($1::int[])', [
      [links[0], links[2], links[3]],
      spaces[1],
    ]);
    await expectCounterSpaces();
    await migration.expectSums();
    await db().query('UPDATE links SET space_id = NULL WHERE id = $1', [links[0]]);
    await expectCounterSpaces();
    await migration.expectSums();
    // A change that moves no link leaves them as they are.
    await db().query(`UPDATE links SET title = 'Renamed' WHERE id = ANY($1::int[])`, [links]);
    await migration.expectSums();

    // A space deleted leaves its links in none: their clicks go with them.
    await db().query('DELETE FROM spaces WHERE id = $1', [spaces[1]]);
    await expectCounterSpaces();
    await migration.expectSums();
    const [{ left }] = await db().query<{ left: number }[]>(
      `SELECT (SELECT count(*) FROM space_click_hours WHERE space_id = $1)
            + (SELECT count(*) FROM space_click_days WHERE space_id = $1) AS left`,
      [spaces[1]],
    );
    expect(Number(left)).toBe(0);

    // To another workspace, in its space; and deleted.
    await db().query('UPDATE links SET account_id = $2, space_id = $3 WHERE id = $1', [
      links[4],
      accounts[0],
      spaces[0],
    ]);
    await db().query('UPDATE links SET account_id = $2 WHERE id = $1', [links[5], accounts[0]]);
    await expectCounterSpaces();
    await migration.expectSums();
    await db().query('DELETE FROM links WHERE id = ANY($1::int[])', [[links[1], links[4]]]);
    await migration.expectSums();
    // Rows a move or a delete left at zero are gone, not kept at 0.
    await migration.expectNoZeroRows('space');
  });

  it('reverts to the schema of before, whose clicks, moves and deletes work as they did', async () => {
    await migration.undo();
    const [{ tables, columns }] = await db().query<{ tables: number; columns: number }[]>(
      `SELECT (SELECT count(*)::int FROM information_schema.tables WHERE table_name LIKE 'space_click_%') AS tables,
              (SELECT count(*)::int FROM information_schema.columns
                WHERE table_name = 'link_counters' AND column_name = 'space_id') AS columns`,
    );
    expect([tables, columns]).toEqual([0, 0]);
    await click(links[2], '2026-11-22T00:00:00Z', 'FR', 'Tablet');
    const [{ clicks }] = await db().query<{ clicks: number }[]>(
      'SELECT sum(clicks)::int AS clicks FROM click_hours WHERE link_id = $1',
      [links[2]],
    );
    expect(clicks).toBe(3);
    await migration.links([[accounts[0], 'eight', spaces[0]]]);
    await db().query('UPDATE links SET space_id = NULL WHERE id = $1', [links[3]]);
    await db().query('DELETE FROM links WHERE id = $1', [links[2]]);
    await migration.apply();
    await expectCounterSpaces();
    await migration.expectSums();
  });
});
