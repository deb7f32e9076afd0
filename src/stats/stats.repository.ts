import { Inject, Injectable } from '@nestjs/common';
import type { SortDirection } from '../common/list-query.dto';
import type { Page, PageRequest } from '../common/pagination';
import { substringPattern } from '../common/search';
import { cursorRows } from '../database/cursor';
import { ReadReplicas } from '../database/read-replicas';
import { DATABASE_CONNECTION, type DatabaseConnection } from '../database/database.module';
import { COUNTRY_NAMES } from '../targeting/allowed-values';
import { DIMENSION_CODES, VISITOR_DIMENSIONS } from '../clicks/click-dimensions';
import { STATS_DIMENSIONS, type StatsDimension, type StatsSortBy } from './dto/stats-query.dto';

/** One value of a report and its clicks, as the queries answer it. */
export interface CountedValue {
  value: string | null;
  count: number;
}

/** A link's rollups as stored. */
export interface StoredRollups {
  link_id: number;
  hours: { hour: Date; clicks: number }[];
  days: { name: StatsDimension; day: string; value: string | null; clicks: number }[];
}

/** A period of whole UTC days: `from` and `to` are midnights, both days included. */
export interface DayRange {
  from: Date;
  to: Date;
}

/** How clicks over time are counted: per hour, day, month or year. */
export type ClickBucket = 'hour' | 'day' | 'month' | 'year';

/** Each bucket as phpShort names it (`Y-m-d H`, `Y-m-d`, `Y-m`, `Y`), in UTC: text that sorts as time does. */
const BUCKET_FORMATS: Record<ClickBucket, string> = {
  hour: 'YYYY-MM-DD HH24',
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

/** Whose way a report writes a dimension's values: phpShort's (the stats API), or the public stats page's. */
export type ValueStyle = 'phpshort' | 'page';

/**
 * Each dimension's value in each style, from the stored text `v.value` (the stored text itself where none is
 * said). phpShort's: a country as `GB:United Kingdom` (`$names` is the country names' JSON, bound when used), a city
 * as `GB:London` (stored so), a device in lower case, a target as its URL, code 0 (no text) being the own `url`
 * of the link `c.own`, as it is now. The page's: the stored code (`GB`, `en`), a city by its name alone.
 */
const VALUES: Record<ValueStyle, Partial<Record<StatsDimension, string>>> = {
  phpshort: {
    country: `v.value || ':' || COALESCE($names::jsonb ->> v.value, v.value)`,
    device: 'lower(v.value)',
    target: `COALESCE(v.value, (SELECT url FROM links WHERE id = c.own))`,
  },
  page: {
    city: `substr(v.value, strpos(v.value, ':') + 1)`,
  },
};

const COUNTRY_NAMES_JSON = JSON.stringify(COUNTRY_NAMES);

/** The order of a report: phpShort's, by count or by value either way; or the public page's, most clicks first. */
export type ReportOrder = { by: StatsSortBy; direction: SortDirection } | 'page';

/**
 * A report's ORDER BY. phpShort sorts values as text, in any case: by value with MySQL's order of nulls (first
 * ascending, last descending); by count with equal counts by value, unknown last. The page: highest first.
 */
function orderBy(order: ReportOrder): string {
  if (order === 'page') return 'count DESC, value ASC NULLS LAST';
  if (order.by === 'count') {
    return `count ${order.direction === 'asc' ? 'ASC' : 'DESC'}, lower(value) ASC NULLS LAST, value ASC`;
  }
  const direction = order.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
  return `lower(value) ${direction}, value ${direction}`;
}

/** Whose clicks a report counts: one link's, or those of the links of a workspace that a filter selects. */
export type StatsScope = { linkId: number } | WorkspaceLinks;

/**
 * What a report reads: a scope, or a comparison's links once found ({@link StatsRepository.counted}): the ids of
 * those the caller reaches among the ones it named, possibly none.
 */
type CountedLinks = StatsScope | { links: readonly number[] };

/** The links of a workspace whose clicks are counted together (contract §14's filters). */
export interface WorkspaceLinks {
  accountId: number;
  /** The spaces a key restricted to spaces reaches; null for every link of the workspace. */
  reach: readonly number[] | null;
  /** One space's links, 0 for those in none; null for any. */
  spaceId: number | null;
  domainId: number | null;
  /** Links holding any of these tags, by name regardless of case; null for any. */
  tags: readonly string[] | null;
  /** Some links alone (a comparison); null for any. */
  linkIds: readonly number[] | null;
}

/**
 * The condition on a rollup's `link_id` that keeps the scope's links, its values added to `params`. A workspace's
 * links are found by the index of their account, each link's rollups then read through their primary key.
 */
function linksOf(scope: CountedLinks, params: unknown[]): string {
  const add = (value: unknown) => `$${params.push(value)}`;
  if ('linkId' in scope) return `link_id = ${add(scope.linkId)}`;
  if ('links' in scope) return `link_id = ANY(${add(scope.links)}::int[])`;
  return `link_id IN (SELECT l.id FROM links l WHERE ${keptBy(scope, params)})`;
}

/** The condition on a link `l` that keeps a workspace's links as its filters say, its values added to `params`. */
function keptBy(scope: WorkspaceLinks, params: unknown[]): string {
  const add = (value: unknown) => `$${params.push(value)}`;
  const where = [`l.account_id = ${add(scope.accountId)}`];
  if (scope.reach !== null) where.push(`l.space_id = ANY(${add(scope.reach)}::int[])`);
  if (scope.spaceId === 0) where.push('l.space_id IS NULL');
  else if (scope.spaceId !== null) where.push(`l.space_id = ${add(scope.spaceId)}`);
  if (scope.domainId !== null) where.push(`l.domain_id = ${add(scope.domainId)}`);
  if (scope.linkIds !== null) where.push(`l.id = ANY(${add(scope.linkIds)}::int[])`);
  if (scope.tags !== null) {
    where.push(
      `EXISTS (SELECT 1 FROM link_tags lt JOIN tags t ON t.id = lt.tag_id
                WHERE lt.link_id = l.id AND lower(t.name) = ANY(${add(scope.tags.map((name) => name.toLowerCase()))}::text[]))`,
    );
  }
  return where.join(' AND ');
}

/**
 * What a scope counts whole, when it keeps no domain, tags or links: a workspace's links (`spaces` null), or those
 * of some of its spaces (0: the links in none): the one space asked for (none if a restricted key does not reach
 * it), or every space a restricted key reaches. Null for any other scope.
 */
function wholeOf(scope: CountedLinks): { accountId: number; spaces: readonly number[] | null } | null {
  if ('linkId' in scope || 'links' in scope) return null;
  if (scope.domainId !== null || scope.tags !== null || scope.linkIds !== null) return null;
  const { accountId, reach, spaceId } = scope;
  if (spaceId === null) return { accountId, spaces: reach };
  return { accountId, spaces: reach === null || reach.includes(spaceId) ? [spaceId] : [] };
}

/**
 * The rollups a report reads: its tables of hours and days, the condition that keeps the scope's rows, and how a
 * day row names its value: its code in `click_values` (0 for unknown), and the link whose own url it is (a
 * target's code 0), null for any other.
 */
interface ScopeRollups {
  hours: string;
  days: string;
  where: string;
  code: string;
  own: string;
}

/**
 * The rollups of a scope, its values added to `params`. What a scope counts whole ({@link wholeOf}) is read from
 * the rollups its links share, the sums of theirs (a target's own url kept per link as the negated link id): a
 * whole workspace's own (`account_click_hours`, `account_click_days`), or its spaces' (`space_click_hours`,
 * `space_click_days`, summed over the spaces a restricted key reaches): a row per hour, or per dimension, day and
 * value (and space), however many links they have. Every other scope reads the rollups of the links it keeps
 * ({@link linksOf}): a domain, tags or a comparison (five links at most), whose cost follows those links' hours,
 * days and values, which rollups per domain or tag would be needed to cut further.
 */
function rollupsOf(scope: CountedLinks, params: unknown[]): ScopeRollups {
  const whole = wholeOf(scope);
  if (whole === null) {
    return {
      hours: 'click_hours',
      days: 'click_days',
      where: linksOf(scope, params),
      code: 'value',
      own: `CASE WHEN value = 0 AND dimension = ${DIMENSION_CODES.target} THEN link_id END`,
    };
  }
  const account = `account_id = $${params.push(whole.accountId)}`;
  const shared = { code: 'GREATEST(value, 0)', own: 'CASE WHEN value < 0 THEN -value END' };
  if (whole.spaces === null) {
    return { hours: 'account_click_hours', days: 'account_click_days', where: account, ...shared };
  }
  return {
    hours: 'space_click_hours',
    days: 'space_click_days',
    where: `${account} AND space_id = ANY($${params.push(whole.spaces)}::int[])`,
    ...shared,
  };
}

/** What a report keeps and how it orders it. */
export interface ReportShape {
  /** Leaves out unknown values. */
  knownOnly: boolean;
  /** Only the values that contain it, in any case; null for all. */
  search: string | null;
  order: ReportOrder;
}

/** The recorded columns of a click, as exported: its time, then what the stats API counts by. */
export const CLICK_COLUMNS = ['created_at', ...VISITOR_DIMENSIONS] as const;

/** A click as exported. */
export type ClickRow = Record<(typeof CLICK_COLUMNS)[number], string | null> & { created_at: Date };

/** The columns of a link's listed clicks: the export's, then the destination the visit was sent to. */
const LISTED_CLICK_COLUMNS = [...CLICK_COLUMNS, 'target'] as const;
type ListedClickColumn = (typeof LISTED_CLICK_COLUMNS)[number];

/** A click as the list of a link's clicks answers it. */
export type ListedClick = Record<ListedClickColumn, string | null> & { created_at: Date };

/** Where the clicks an export writes begin and end (the instant after its last day); null where unbounded. */
export interface ClickBounds {
  from: Date | null;
  until: Date | null;
}

/** The text of a recorded value by its code: 0, unknown, has no row. */
function valueOf(code: string): string {
  return `(SELECT value FROM click_values WHERE id = ${code})`;
}

/**
 * Each listed column of a click `e` with its profile `p`, written as the `clicks` view writes it (a city by its
 * name alone, a target of code 0 as the link's own url), each value looked up for the page's rows alone.
 */
function listedValue(column: ListedClickColumn): string {
  if (column === 'created_at') return 'e.created_at';
  if (column === 'city') {
    return `(SELECT substr(value, strpos(value, ':') + 1) FROM click_values WHERE id = p.city)`;
  }
  if (column === 'target') {
    return `CASE WHEN e.target_id = 0 THEN (SELECT url FROM links WHERE id = e.link_id) ELSE ${valueOf('e.target_id')} END`;
  }
  return valueOf(`p.${column}`);
}

const LISTED_CLICK_SELECT = LISTED_CLICK_COLUMNS.map((column) => `${listedValue(column)} AS ${column}`).join(
  ',\n         ',
);

const DAY_MS = 86_400_000;

function isoDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

/** The midnight after the range's last day. */
function endOf(range: DayRange): string {
  return new Date(range.to.getTime() + DAY_MS).toISOString();
}

/**
 * The stats queries. Every one reads the rollups that click batches keep (`click_hours`, `click_days`, and those of
 * whole workspaces and spaces, {@link rollupsOf}), never the raw clicks, so that its cost follows the number of
 * hours, days and distinct values in the period, not the number of clicks. All are read through their primary keys:
 * (link, hour) and (link, dimension, day, value), or the same keyed by account, or by account and space.
 * Only the export and the list of a link's clicks read the raw clicks. All are read from a replica when one is
 * recent enough ({@link ReadReplicas}): clicks are counted a moment after their visits in any case.
 */
@Injectable()
export class StatsRepository {
  constructor(
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
    private readonly reads: ReadReplicas,
  ) {}

  /** Clicks per bucket of UTC time with clicks, named as phpShort names them, ordered and paged as asked. */
  async overTime(
    scope: StatsScope,
    range: DayRange,
    bucket: ClickBucket,
    shape: Omit<ReportShape, 'knownOnly'>,
    page: PageRequest | null,
  ): Promise<Page<CountedValue>> {
    const params: unknown[] = [range.from.toISOString(), endOf(range), BUCKET_FORMATS[bucket]];
    const rollups = rollupsOf(await this.counted(scope), params);
    return this.paged(
      `SELECT to_char(hour AT TIME ZONE 'UTC', $3) AS value, sum(clicks)::int AS count
         FROM ${rollups.hours}
        WHERE ${rollups.where} AND hour >= $1 AND hour < $2
        GROUP BY 1`,
      params,
      shape,
      page,
    );
  }

  /** Clicks per value of a dimension in the period, written in `style`, searched, ordered and paged as asked. */
  async byValue(
    scope: StatsScope,
    dimension: StatsDimension,
    range: DayRange,
    style: ValueStyle,
    shape: ReportShape,
    page: PageRequest | null,
  ): Promise<Page<CountedValue>> {
    const params: unknown[] = [DIMENSION_CODES[dimension], isoDay(range.from), isoDay(range.to)];
    const display = (VALUES[style][dimension] ?? 'v.value').replace(
      '$names',
      () => `$${params.push(COUNTRY_NAMES_JSON)}`,
    );
    const rollups = rollupsOf(await this.counted(scope), params);
    // Values are summed by code over the days first (the index range of each link, workspace or space, and
    // dimension), then named. A target's code 0 is each link's own url: kept apart per link (`own`) until named.
    return this.paged(
      `SELECT ${display} AS value, sum(c.count)::int AS count
         FROM (SELECT ${rollups.code} AS code, ${rollups.own} AS own, sum(clicks) AS count
                 FROM ${rollups.days}
                WHERE ${rollups.where} AND dimension = $1 AND day >= $2 AND day <= $3 ${shape.knownOnly ? 'AND value <> 0' : ''}
                GROUP BY 1, 2) c
         LEFT JOIN click_values v ON v.id = c.code
        GROUP BY 1`,
      params,
      shape,
      page,
    );
  }

  /**
   * The rollups of links as they are stored, for another instance's import: every hour with clicks, and every day,
   * dimension and value (the stored text: country `GB`, city `GB:London`; null for unknown), in key order.
   */
  async rollups(linkIds: number[]): Promise<StoredRollups[]> {
    const [hours, days] = await Promise.all([
      // A link's hours as one JSON text of [milliseconds, clicks] pairs: read whole, not a row and a date apiece.
      this.reads.query<{ link_id: number; hours: string }[]>(
        null,
        `SELECT link_id,
                json_agg(json_build_array((extract(epoch FROM hour) * 1000)::bigint, clicks) ORDER BY hour)::text AS hours
           FROM click_hours WHERE link_id = ANY($1::int[]) GROUP BY link_id`,
        [linkIds],
      ),
      this.reads.query<
        { link_id: number; dimension: number; day: string; value: string | null; clicks: number }[]
      >(
        null,
        `SELECT d.link_id, d.dimension, to_char(d.day, 'YYYY-MM-DD') AS day, v.value, d.clicks
           FROM click_days d LEFT JOIN click_values v ON v.id = d.value
          WHERE d.link_id = ANY($1::int[])
          ORDER BY d.link_id, d.dimension, d.day, d.value`,
        [linkIds],
      ),
    ]);
    const byLink = new Map<number, StoredRollups>(
      linkIds.map((linkId) => [linkId, { link_id: linkId, hours: [], days: [] }]),
    );
    for (const row of hours) {
      byLink.get(row.link_id)!.hours = (JSON.parse(row.hours) as [number, number][]).map(([ms, clicks]) => ({
        hour: new Date(ms),
        clicks,
      }));
    }
    for (const row of days) {
      byLink.get(row.link_id)!.days.push({
        name: STATS_DIMENSIONS[row.dimension - 1],
        day: row.day,
        value: row.value,
        clicks: row.clicks,
      });
    }
    return [...byLink.values()];
  }

  /** Clicks of every day of the period, zeros included, oldest first, paged. */
  async perDay(linkId: number, range: DayRange, page: PageRequest): Promise<Page<CountedValue>> {
    const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS) + 1;
    const rows: CountedValue[] = await this.reads.query(
      null,
      `WITH counted AS (
         SELECT (hour AT TIME ZONE 'UTC')::date AS day, sum(clicks)::int AS count
           FROM click_hours
          WHERE link_id = $1 AND hour >= $2 AND hour < $3
          GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS value, COALESCE(counted.count, 0) AS count
         FROM generate_series($4::date, $5::date, interval '1 day') AS d(day)
         LEFT JOIN counted ON counted.day = d.day::date
        ORDER BY d.day LIMIT $6 OFFSET $7`,
      [
        linkId,
        range.from.toISOString(),
        endOf(range),
        isoDay(range.from),
        isoDay(range.to),
        page.perPage,
        (page.page - 1) * page.perPage,
      ],
    );
    return { items: rows, total: days };
  }

  /** Clicks per bucket of `unit` (UTC) over the period, every bucket, zeros included, oldest first. */
  async buckets(
    linkId: number,
    range: DayRange,
    unit: 'hour' | 'day' | 'month' | 'year',
  ): Promise<{ start: string; count: number }[]> {
    return this.reads.query(
      null,
      `WITH counted AS (
         SELECT date_trunc($4, hour AT TIME ZONE 'UTC') AS bucket, sum(clicks)::int AS count
           FROM click_hours
          WHERE link_id = $1 AND hour >= $2 AND hour < $3
          GROUP BY 1)
       SELECT to_char(series.bucket, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, COALESCE(counted.count, 0) AS count
         FROM generate_series(
                date_trunc($4, $2::timestamptz AT TIME ZONE 'UTC'),
                $3::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond',
                ('1 ' || $4)::interval) AS series(bucket)
         LEFT JOIN counted ON counted.bucket = series.bucket
        ORDER BY series.bucket`,
      [linkId, range.from.toISOString(), endOf(range), unit],
    );
  }

  /** The clicks of the period. */
  async total(linkId: number, range: DayRange): Promise<number> {
    const [row] = await this.reads.query<{ count: number }[]>(
      null,
      `SELECT COALESCE(sum(clicks), 0)::int AS count FROM click_hours WHERE link_id = $1 AND hour >= $2 AND hour < $3`,
      [linkId, range.from.toISOString(), endOf(range)],
    );
    return row.count;
  }

  /**
   * A link's clicks within the bounds, oldest first, `chunk` at a time through a database cursor; a bound narrows
   * the (link_id, created_at) index to its range, and the months' partitions to its own.
   */
  async *clickRows(linkId: number, bounds: ClickBounds, chunk: number): AsyncGenerator<ClickRow[]> {
    const params: unknown[] = [linkId];
    const where = ['link_id = $1'];
    if (bounds.from !== null) where.push(`created_at >= $${params.push(bounds.from.toISOString())}`);
    if (bounds.until !== null) where.push(`created_at < $${params.push(bounds.until.toISOString())}`);
    yield* cursorRows<ClickRow>(
      await this.reads.sourceFor(null),
      `SELECT ${CLICK_COLUMNS.join(', ')} FROM clicks WHERE ${where.join(' AND ')} ORDER BY created_at`,
      params,
      chunk,
      this.connection,
    );
  }

  /**
   * One page of a link's clicks in the period, newest first (`desc`) or oldest first. The page is cut from the
   * (link_id, created_at) index alone, read from its end and through the newest month's partition first, so that
   * page 1 reads a page of entries however many clicks the link has, and a page N deep reads N entries; only the
   * page's rows are then joined to their profile and values (joined before the cut, each skipped click would be
   * too: 200 ms, not 3, 10,000 deep).
   */
  async clickPage(
    linkId: number,
    range: DayRange,
    page: PageRequest,
    direction: SortDirection,
  ): Promise<ListedClick[]> {
    const order = direction === 'asc' ? 'ASC' : 'DESC';
    return this.reads.query(
      null,
      `SELECT ${LISTED_CLICK_SELECT}
         FROM (SELECT link_id, created_at, profile_id, target_id FROM click_events
                WHERE link_id = $1 AND created_at >= $2 AND created_at < $3
                ORDER BY created_at ${order} LIMIT $4 OFFSET $5) e
         JOIN click_profiles p ON p.id = e.profile_id
        ORDER BY e.created_at ${order}`,
      [linkId, range.from.toISOString(), endOf(range), page.perPage, (page.page - 1) * page.perPage],
    );
  }

  /**
   * How many clicks of the link the period holds, for a list's `meta.total`, without counting them one by one
   * (a million clicks take 300 ms to count through the index). Every raw click is counted in `click_days` once
   * per visitor dimension, in the statement that writes it, so a dimension's rows of the link and days sum to its
   * clicks: `device`'s, which has the fewest values a day (a few rows a day, where `click_hours` has 24). The sum
   * is exact from the first day whose raw clicks are still held (retention drops whole months of raw clicks and
   * keeps their rollups), and for a link no import brought history to, since a source that keeps no visits gives
   * rollups without raw clicks: such a link's clicks are counted.
   */
  async clickTotal(linkId: number, range: DayRange): Promise<number> {
    const [rolled] = await this.reads.query<{ total: number | null }[]>(
      null,
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM imported_links WHERE link_id = $1) THEN NULL ELSE
              (SELECT COALESCE(sum(clicks), 0)::int FROM click_days
                WHERE link_id = $1 AND dimension = $4 AND day <= $3
                  AND day >= GREATEST($2::date,
                                      (SELECT (max(dropped_before) AT TIME ZONE 'UTC')::date FROM click_retention)))
              END AS total`,
      [linkId, isoDay(range.from), isoDay(range.to), DIMENSION_CODES.device],
    );
    if (rolled.total !== null) return rolled.total;
    const [counted] = await this.reads.query<{ total: number }[]>(
      null,
      `SELECT count(*)::int AS total FROM click_events WHERE link_id = $1 AND created_at >= $2 AND created_at < $3`,
      [linkId, range.from.toISOString(), endOf(range)],
    );
    return counted.total;
  }

  /**
   * A comparison's links, found before its report: the ids named that the scope's other filters keep (through the
   * index of the account and id, five at most). Named in the report's statement, they are planned for as what they
   * are: the sum of a link of 10,000,000 clicks and four more over 90 days reads 85,000 day rows, counted by hash in
   * 25 ms where the same links kept by a subquery, their number unknown to the planner, were sorted on disk in 60.
   * Any other scope is read as it is.
   */
  private async counted(scope: StatsScope): Promise<CountedLinks> {
    if ('linkId' in scope || scope.linkIds === null) return scope;
    const params: unknown[] = [];
    const rows = await this.reads.query<{ id: number }[]>(
      null,
      `SELECT l.id FROM links l WHERE ${keptBy(scope, params)}`,
      params,
    );
    return { links: rows.map((row) => row.id) };
  }

  /**
   * The rows of a query of (value, count) that match the search, in the order, one page of them (all for a null
   * page) with how many there are. Paged after the search and the order, as phpShort pages.
   */
  private async paged(
    query: string,
    params: unknown[],
    shape: Pick<ReportShape, 'search' | 'order'>,
    page: PageRequest | null,
  ): Promise<Page<CountedValue>> {
    const order = orderBy(shape.order);
    const search =
      shape.search === null
        ? ''
        : `WHERE value ILIKE $${params.push(substringPattern(shape.search))} ESCAPE '\\'`;
    const limit =
      page === null
        ? ''
        : `LIMIT $${params.push(page.perPage)} OFFSET $${params.push((page.page - 1) * page.perPage)}`;
    const rows: (CountedValue & { total: number })[] = await this.reads.query(
      null,
      `SELECT value, count, (count(*) OVER ())::int AS total
         FROM (${query}) counted
        ${search}
        ORDER BY ${order}
        ${limit}`,
      params,
    );
    if (rows.length > 0 || page === null || page.page === 1) {
      return { items: rows.map(({ value, count }) => ({ value, count })), total: rows[0]?.total ?? 0 };
    }
    // Past the last page: the count alone.
    const [row] = await this.reads.query<{ total: number }[]>(
      null,
      `SELECT count(*)::int AS total FROM (${query}) counted ${search}`,
      params.slice(0, params.length - 2),
    );
    return { items: [], total: row.total };
  }
}
