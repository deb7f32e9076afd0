import { ClickWriter } from '../src/clicks/click-writer';
import type { VisitorProfile } from '../src/targeting/visitor';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { createLink, showLink } from './support/visitors';

const PERSON: VisitorProfile = {
  country: 'CH',
  city: 'Zürich',
  continent: 'EU',
  os: 'OS X',
  browser: 'Safari',
  device: 'Desktop',
  language: 'de',
  referrer: 'news.example.org',
  bot: false,
};

/** Every column a click records, as the database stores it. */
const STORED = `SELECT link_id, created_at, referrer, country, continent, browser, operating_system, device, language,
                       city
                  FROM clicks WHERE link_id = ANY($1::int[]) ORDER BY created_at`;

/** What a batch carries, written by the real statements: every column of every click, in the order of arrival. */
describe('click batches', () => {
  let t: TestApp;
  let account: TestAccount;
  let clicks: ClickWriter;

  beforeAll(async () => {
    t = await createTestApp();
    account = await createAccount(t);
    clicks = t.app.get(ClickWriter);
  });
  afterAll(async () => {
    await t?.close();
  });

  function stored(ids: number[]) {
    return t.dataSource.query<Record<string, unknown>[]>(STORED, [ids]);
  }

  it('records each click with its own profile and time, profiles shared or not, text of any kind', async () => {
    const first = await createLink(t, account, { url: 'https://example.com/1' });
    const second = await createLink(t, account, { url: 'https://example.com/2' });
    // Values no visitor header makes, but that the statement must carry untouched all the same.
    const odd: VisitorProfile = {
      ...PERSON,
      city: 'Quote " back \\ tab \t ☃',
      referrer: '{1,2}',
      language: null,
      country: null,
      continent: null,
    };
    const empty: VisitorProfile = { ...odd, city: null, referrer: null, os: null, browser: null };
    const visits: [number, VisitorProfile][] = [
      [first.id, PERSON],
      [second.id, odd],
      [first.id, empty],
      [first.id, PERSON],
      [second.id, { ...PERSON }],
    ];
    const before = Date.now();
    for (const [id, visitor] of visits)
      void clicks.count({ id, clicksLimit: null, turns: [] }, visitor, null);
    const after = Date.now();
    await clicks.settle();

    // Clicks of the same millisecond have no order among them: raw clicks carry no row number.
    const rows = await stored([first.id, second.id]);
    const unordered = (list: object[]) => list.map((row) => JSON.stringify(row)).sort();
    expect(unordered(rows.map(({ created_at: _, ...row }) => row))).toEqual(
      unordered(
        visits.map(([id, visitor]) => ({
          link_id: id,
          referrer: visitor.referrer,
          country: visitor.country,
          continent: visitor.continent,
          browser: visitor.browser,
          operating_system: visitor.os,
          device: visitor.device,
          language: visitor.language,
          city: visitor.city,
        })),
      ),
    );
    for (const row of rows) {
      const at = (row.created_at as Date).getTime();
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
    }
    expect((await showLink(t, account, first.id)).clicks).toBe(3);
    expect((await showLink(t, account, second.id)).clicks).toBe(2);
  });

  it('grants a limited link its claims with their profiles, and records nothing past the limit', async () => {
    const link = await createLink(t, account, { url: 'https://example.com/limited', clicks_limit: 2 });
    const other: VisitorProfile = { ...PERSON, country: 'FR', city: null, referrer: null };
    const granted = await Promise.all(
      [PERSON, other, PERSON].map((visitor) =>
        Promise.resolve(clicks.count({ id: link.id, clicksLimit: 2, turns: [] }, visitor, null)),
      ),
    );
    expect(granted).toEqual([{ rotation: null }, { rotation: null }, null]);
    const rows = await stored([link.id]);
    expect(rows.map((row) => [row.country, row.city, row.referrer])).toEqual([
      ['CH', 'Zürich', 'news.example.org'],
      ['FR', null, null],
    ]);
  });

  it('drops the clicks of a link deleted before its batch is written, and writes the others', async () => {
    const kept = await createLink(t, account, { url: 'https://example.com/kept' });
    const gone = await createLink(t, account, { url: 'https://example.com/gone' });
    for (const id of [kept.id, gone.id, kept.id])
      void clicks.count({ id, clicksLimit: null, turns: [] }, PERSON, null);
    await t.dataSource.query('DELETE FROM links WHERE id = $1', [gone.id]);
    await clicks.settle();
    expect((await stored([kept.id, gone.id])).map((row) => row.link_id)).toEqual([kept.id, kept.id]);
    expect(clicks.pending()).toBe(0);
  });
});
