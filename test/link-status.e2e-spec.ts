import { randomBytes } from 'node:crypto';
import { DataSource, type QueryRunner } from 'typeorm';
import { ClickRepository } from '../src/clicks/click.repository';
import { dataSourceOptions } from '../src/database/data-source-options';
import { linkCountQuery, type LinkListFilter } from '../src/links/link-list.repository';
import { LinkStatus, linkStatus, type StatusInput } from '../src/links/status/link-status';
import { linkStatusCondition, linkStatusSql } from '../src/links/status/link-status.repository';
import type { VisitorProfile } from '../src/targeting/visitor';

/** A link's settings, its period in milliseconds from the statement's `now()` (null: no bound), and its clicks. */
interface Case {
  disabled: boolean;
  start: number | null;
  end: number | null;
  limit: number | null;
  clicks: number;
}

const HOUR = 3_600_000;

const VISITOR: VisitorProfile = {
  country: null,
  city: null,
  continent: null,
  os: null,
  browser: null,
  device: 'Desktop',
  language: null,
  referrer: null,
  bot: false,
};

/** Every kind of period, the instants exactly at its start and its end among them, and one-sided ones. */
const PERIODS: Record<string, [number | null, number | null]> = {
  none: [null, null],
  before: [HOUR, 2 * HOUR],
  'a millisecond before': [1, HOUR],
  'at its very start': [0, HOUR],
  inside: [-HOUR, HOUR],
  'a millisecond before its end': [-HOUR, 1],
  'at its very end': [-HOUR, 0],
  after: [-2 * HOUR, -HOUR],
  'start only, to come': [HOUR, null],
  'start only, begun now': [0, null],
  'start only, begun': [-HOUR, null],
  'end only, to come': [null, HOUR],
  'end only, ending now': [null, 0],
  'end only, ended': [null, -HOUR],
};

/** Limits with clicks under, at and over them; no limit (null, and 0, which the database may hold); a negative. */
const LIMITS: [number | null, number][] = [
  [null, 0],
  [null, 7],
  [0, 0],
  [0, 7],
  [-1, 3],
  [5, 0],
  [5, 4],
  [5, 5],
  [5, 6],
  [1, 0],
  [1, 1],
];

const CASES: (Case & { name: string })[] = [false, true].flatMap((disabled) =>
  Object.entries(PERIODS).flatMap(([period, [start, end]]) =>
    LIMITS.map(([limit, clicks]) => ({
      name: `${disabled ? 'disabled' : 'enabled'}, period ${period}, limit ${limit}, ${clicks} clicks`,
      disabled,
      start,
      end,
      limit,
      clicks,
    })),
  ),
);

interface Stored {
  id: number;
  disabled: boolean;
  active_period_start_at: Date | null;
  active_period_end_at: Date | null;
  clicks_limit: number | null;
}

/**
 * The link-status rule in TypeScript and in SQL agree on every case: the SQL value of the rule, the filters of the
 * lists (and their counts), and the claim of a click. Each case is a link whose period is placed around the
 * statement's `now()`, all in one transaction (whose `now()` stays put), rolled back at the end; on PostgreSQL and
 * on the embedded database alike.
 */
describe('Link status, in TypeScript and in SQL', () => {
  let dataSource: DataSource;
  let runner: QueryRunner;
  let account: number;
  let now: Date;
  /** Each case's link, as stored, by its case's index. */
  const links: Stored[] = [];
  /** What the TypeScript rule says of each case's link, by id. */
  const expected = new Map<number, LinkStatus>();

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    [{ now }] = await runner.manager.query<{ now: Date }[]>('SELECT now() AS now');
    [{ id: account }] = await runner.manager.query<{ id: number }[]>(
      `INSERT INTO accounts (name) VALUES ('Link status') RETURNING id`,
    );
    const [{ id: domain }] = await runner.manager.query<{ id: number }[]>(
      'INSERT INTO domains (account_id, name) VALUES ($1, $2) RETURNING id',
      [account, `${randomBytes(5).toString('hex')}.example`],
    );
    const stored = await runner.manager.query<(Stored & { item: number })[]>(
      `INSERT INTO links (account_id, domain_id, alias, url, disabled, active_period_start_at, active_period_end_at,
                          clicks_limit)
       SELECT $1, $2, 'case' || c.item, 'https://example.com/', c.disabled,
              now() + c.start_ms * interval '1 millisecond', now() + c.end_ms * interval '1 millisecond', c.clicks_limit
         FROM json_to_recordset($3::json) AS c(item integer, disabled boolean, start_ms integer, end_ms integer,
                                               clicks_limit integer)
       RETURNING id, substr(alias, 5)::int AS item, disabled, active_period_start_at, active_period_end_at,
                 clicks_limit`,
      [
        account,
        domain,
        JSON.stringify(
          CASES.map((c, item) => ({
            item,
            disabled: c.disabled,
            start_ms: c.start,
            end_ms: c.end,
            clicks_limit: c.limit,
          })),
        ),
      ],
    );
    for (const row of stored) links[row.item] = row;
    // The link counts take a transaction's changes as it commits: this one's, now.
    await runner.manager.query('SET CONSTRAINTS ALL IMMEDIATE');
    await runner.manager.query(
      `UPDATE link_counters c SET clicks = n.clicks, listed_clicks = n.clicks
         FROM unnest($1::int[], $2::int[]) AS n(link_id, clicks) WHERE c.link_id = n.link_id`,
      [links.map((link) => link.id), CASES.map((c) => c.clicks)],
    );
    CASES.forEach((c, item) => {
      const link = links[item];
      const input: StatusInput = {
        disabled: link.disabled,
        activePeriodStartAt: link.active_period_start_at,
        activePeriodEndAt: link.active_period_end_at,
        clicksLimit: link.clicks_limit,
      };
      expected.set(link.id, linkStatus(input, c.clicks, now));
    });
  });

  afterAll(async () => {
    if (runner?.isTransactionActive) await runner.rollbackTransaction();
    await runner?.release();
    await dataSource?.destroy();
  });

  it('covers every status, and the boundaries of a period on both sides', () => {
    const statuses = [...expected.values()];
    for (const status of [LinkStatus.Active, LinkStatus.Expired, LinkStatus.Disabled]) {
      expect(statuses).toContain(status);
    }
    // Periods were placed on the instant read in the transaction: the TypeScript side sees the same instants.
    const at = (item: number) => links[item];
    const startsNow = CASES.findIndex(
      (c) => !c.disabled && c.start === 0 && c.end === HOUR && c.limit === null,
    );
    const endsNow = CASES.findIndex(
      (c) => !c.disabled && c.start === -HOUR && c.end === 0 && c.limit === null,
    );
    expect(at(startsNow).active_period_start_at).toEqual(now);
    expect(at(endsNow).active_period_end_at).toEqual(now);
    expect(expected.get(at(startsNow).id)).toBe(LinkStatus.Active);
    expect(expected.get(at(endsNow).id)).toBe(LinkStatus.Expired);
  });

  it.each(CASES.map((c, item) => [c.name, item] as const))(
    '%s: the SQL value of the rule agrees',
    async (_name, item) => {
      const link = links[item];
      const [{ status }] = await runner.manager.query<{ status: number }[]>(
        `SELECT ${linkStatusSql('link', 'counter.listed_clicks')} AS status
         FROM links link JOIN link_counters counter ON counter.link_id = link.id
        WHERE link.id = $1`,
        [link.id],
      );
      expect(status).toBe(expected.get(link.id));
    },
  );

  it.each([LinkStatus.Active, LinkStatus.Expired, LinkStatus.Disabled])(
    'the list filter of status %s finds exactly the links the rule gives it, each once',
    async (status) => {
      const found = await runner.manager.query<{ id: number }[]>(
        `SELECT link.id FROM links link WHERE link.account_id = $1 AND ${linkStatusCondition(status, '$1')}`,
        [account],
      );
      const wanted = [...expected].filter(([, given]) => given === status).map(([id]) => id);
      expect(found.map((row) => row.id).sort((a, b) => a - b)).toEqual(wanted.sort((a, b) => a - b));
    },
  );

  it.each([LinkStatus.Active, LinkStatus.Expired, LinkStatus.Disabled])(
    'the list count of status %s counts them',
    async (status) => {
      const filter: LinkListFilter = {
        accountId: account,
        reach: null,
        search: null,
        status,
        spaceId: null,
        domainId: null,
        pixelId: null,
        tagIds: null,
        archived: false,
        health: null,
      };
      const { text, values } = linkCountQuery(filter);
      const [{ count, links: all }] = await runner.manager.query<{ count: number; links: number }[]>(
        text,
        values,
      );
      expect(count).toBe([...expected.values()].filter((given) => given === status).length);
      expect(all).toBe(CASES.length);
    },
  );

  it('a claim grants a click exactly to the active links', async () => {
    // The claim's statement, in this transaction, so that it sees the same `now()`.
    const repository = new ClickRepository(runner.manager as unknown as DataSource);
    const granted = new Map<number, number>();
    for (const link of links) {
      const plan = await repository.claim(
        link.id,
        [{ linkId: link.id, at: now.getTime(), visitor: VISITOR, target: null }],
        [],
      );
      granted.set(link.id, plan?.granted ?? 0);
    }
    const wanted = new Map([...expected].map(([id, status]) => [id, status === LinkStatus.Active ? 1 : 0]));
    expect(granted).toEqual(wanted);
  });
});
