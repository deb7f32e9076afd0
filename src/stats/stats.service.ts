import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClickWriter } from '../clicks/click-writer';
import { ValidationFailedException } from '../common/exceptions';
import type { SortDirection } from '../common/list-query.dto';
import { ApiInteger } from '../common/openapi';
import type { Page, PageRequest } from '../common/pagination';
import { substringPattern } from '../common/search';
import { COUNTRY_NAMES } from '../targeting/allowed-values';
import {
  isClicksOverTime,
  type StatsDimension,
  type StatsName,
  type StatsSortBy,
} from './dto/stats-query.dto';

/** One value of a report and its clicks. */
export class StatsRow {
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'GB:United Kingdom',
    description: 'The bucket (`Y-m-d`, ...) for clicks over time; else the value as phpShort writes it.',
  })
  value!: string | null;

  @ApiInteger({ minimum: 1 })
  count!: number;
}

export interface StatsRange {
  from: Date;
  /** The last day, included. */
  to: Date;
}

/** What a stats answer keeps, and in which order. */
export interface StatsOrder {
  /** Only the values that contain it, in any case; null for all. */
  search: string | null;
  sortBy: StatsSortBy;
  direction: SortDirection;
}

/** How clicks over time are counted: per hour, day, month or year, by the length of the range. */
export type ClickBucket = 'hour' | 'day' | 'month' | 'year';

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
/** Dates are written with four-digit years, in the API and in SQL: 9999-12-31 is the last day there is. */
const LAST_DAY = new Date(Date.UTC(9999, 11, 31));
/** phpShort's longest range: a hundred years of days. */
const MAX_RANGE_DAYS = 36_500;

/** Raw columns of `clicks` by dimension, for the public page: a closed set, never client text, in the SQL. */
const COLUMNS: Record<StatsDimension, string> = {
  referrer: 'referrer',
  country: 'country',
  city: 'city',
  continent: 'continent',
  browser: 'browser',
  operating_system: 'operating_system',
  device: 'device',
  language: 'language',
};

/**
 * Each dimension's value as phpShort writes it, from the stored codes: a country as `GB:United Kingdom`, a city
 * as `GB:London`, a device in lower case. `$names` is the country names' JSON.
 */
const PHPSHORT_VALUES: Record<StatsDimension, string> = {
  ...COLUMNS,
  country: `country || ':' || COALESCE($names::jsonb ->> country, country)`,
  city: `country || ':' || city`,
  device: 'lower(device)',
};

/** Each bucket as phpShort names it (`Y-m-d H`, `Y-m-d`, `Y-m`, `Y`), in UTC: text that sorts as time does. */
const BUCKET_FORMATS: Record<ClickBucket, string> = {
  hour: 'YYYY-MM-DD HH24',
  day: 'YYYY-MM-DD',
  month: 'YYYY-MM',
  year: 'YYYY',
};

const COUNTRY_NAMES_JSON = JSON.stringify(COUNTRY_NAMES);

/**
 * Cities are listed only where they are known: every city is unknown without a city database, and the list is
 * then empty rather than one null.
 */
const KNOWN_ONLY: Partial<Record<StatsDimension, string>> = { city: 'AND city IS NOT NULL' };

function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The UTC day a moment falls on. */
export function dayOf(moment: Date): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth(), moment.getUTCDate()));
}

/**
 * The requested days, both included: by default up to today, from `firstDay` (no later than the last day) or
 * else the last 30 days.
 */
export function statsRange(
  from: Date | null | undefined,
  to: Date | null | undefined,
  firstDay?: Date,
): StatsRange {
  const last = to ?? today();
  const first =
    from ??
    (firstDay === undefined
      ? new Date(last.getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS)
      : new Date(Math.min(firstDay.getTime(), last.getTime())));
  if (first > last)
    throw ValidationFailedException.of('from', 'The from field must be a date before or equal to to.');
  // The range ends at midnight after `to`, which must still be a date of the four-digit years.
  if (last.getTime() + DAY_MS > LAST_DAY.getTime()) {
    throw ValidationFailedException.of('to', 'The to field must be a date before 9999-12-31.');
  }
  if ((last.getTime() - first.getTime()) / DAY_MS >= MAX_RANGE_DAYS) {
    throw ValidationFailedException.of('from', `The range must not be longer than ${MAX_RANGE_DAYS} days.`);
  }
  return { from: first, to: last };
}

/** phpShort's buckets: hours for one day, days under 90 days, months under 730, years beyond. */
export function clickBucket(range: StatsRange): ClickBucket {
  const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS);
  if (days < 1) return 'hour';
  if (days < 90) return 'day';
  if (days < 730) return 'month';
  return 'year';
}

/** What phpShort answers when nothing is asked: clicks over time oldest first, other values most frequent first. */
export function defaultOrder(name: StatsName): Pick<StatsOrder, 'sortBy' | 'direction'> {
  return isClicksOverTime(name)
    ? { sortBy: 'value', direction: 'asc' }
    : { sortBy: 'count', direction: 'desc' };
}

@Injectable()
export class StatsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clicks: ClickWriter,
  ) {}

  /**
   * The stats API's answer, as phpShort gives it: the values that have clicks in the range, with their count, a
   * page of them (`page`; null for all). For `click`, the clicks per hour, day, month or year (see
   * {@link clickBucket}); for a dimension, its values as phpShort writes them (null where unknown, except cities,
   * listed only where known). Values are searched and sorted as text, in any case, before the page is cut: by value
   * with MySQL's order of nulls (first ascending, last descending); by count with equal counts by value, unknown
   * last. `total` counts every value found, on a page past the end too.
   */
  async report(
    linkId: number,
    name: StatsName,
    range: StatsRange,
    order: StatsOrder,
    page: PageRequest | null,
  ): Promise<Page<StatsRow>> {
    // Every visit this instance answered is counted in what it reports.
    await this.clicks.settle([linkId]);
    const end = new Date(range.to.getTime() + DAY_MS);
    const params: unknown[] = [linkId, range.from.toISOString(), end.toISOString()];
    const parameter = (value: unknown) => `$${params.push(value)}`;
    let value: string;
    let known = '';
    if (isClicksOverTime(name)) {
      value = `to_char(created_at AT TIME ZONE 'UTC', '${BUCKET_FORMATS[clickBucket(range)]}')`;
    } else {
      value = PHPSHORT_VALUES[name];
      if (value.includes('$names')) value = value.replace('$names', parameter(COUNTRY_NAMES_JSON));
      known = KNOWN_ONLY[name] ?? '';
    }
    const search =
      order.search === null
        ? ''
        : `WHERE value ILIKE ${parameter(substringPattern(order.search))} ESCAPE '\\'`;
    const direction = order.direction === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
    const sort =
      order.sortBy === 'count'
        ? `count ${order.direction === 'asc' ? 'ASC' : 'DESC'}, lower(value) ASC NULLS LAST, value ASC`
        : `lower(value) ${direction}, value ${direction}`;
    const from = `FROM (SELECT ${value} AS value FROM clicks
                WHERE link_id = $1 AND created_at >= $2 AND created_at < $3 ${known}) click
        ${search}
        GROUP BY value`;
    if (page === null) {
      const items = await this.dataSource.query<StatsRow[]>(
        `SELECT value, count(*)::int AS count ${from} ORDER BY ${sort}`,
        params,
      );
      return { items, total: items.length };
    }
    const found = [...params];
    const offset = (page.page - 1) * page.perPage;
    // The window counts the values found, searched, before LIMIT cuts the page out of them.
    const rows = await this.dataSource.query<(StatsRow & { total: number })[]>(
      `SELECT value, count(*)::int AS count, (count(*) OVER ())::int AS total
         ${from}
        ORDER BY ${sort}
        LIMIT ${parameter(page.perPage)} OFFSET ${parameter(offset)}`,
      params,
    );
    if (rows.length > 0 || offset === 0) {
      const items = rows.map((row) => ({ value: row.value, count: row.count }));
      return { items, total: rows[0]?.total ?? 0 };
    }
    // Past the last page no row carries the total: the values found are counted alone.
    const [counted] = await this.dataSource.query<{ total: number }[]>(
      `SELECT count(*)::int AS total FROM (SELECT value ${from}) found`,
      found,
    );
    return { items: [], total: counted.total };
  }

  /**
   * The raw rows, for the public stats page: clicks per day (every day of the range, oldest first), or counts per
   * stored value of a dimension (country `GB`, language `en`, city `London`; highest first).
   */
  async query(
    linkId: number,
    name: 'clicks' | StatsDimension,
    range: StatsRange,
    page: PageRequest,
  ): Promise<Page<StatsRow>> {
    await this.clicks.settle([linkId]);
    const offset = (page.page - 1) * page.perPage;
    const end = new Date(range.to.getTime() + DAY_MS);
    if (name === 'clicks') {
      const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS) + 1;
      const rows: { day: string; count: number }[] = await this.dataSource.query(
        // Days are UTC days, whatever the session's time zone: 24-hour steps, named in UTC.
        `SELECT to_char(day.d AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(click.id)::int AS count
           FROM generate_series($2::timestamptz, $3::timestamptz, interval '24 hours') AS day(d)
           LEFT JOIN clicks click
             ON click.link_id = $1 AND click.created_at >= day.d AND click.created_at < day.d + interval '24 hours'
          GROUP BY day.d ORDER BY day.d LIMIT $4 OFFSET $5`,
        [linkId, range.from.toISOString(), range.to.toISOString(), page.perPage, offset],
      );
      return { items: rows.map((row) => ({ value: row.day, count: row.count })), total: days };
    }
    const column = COLUMNS[name];
    const rows: { value: string | null; count: number; total: number }[] = await this.dataSource.query(
      `SELECT ${column} AS value, count(*)::int AS count, (count(*) OVER ())::int AS total
         FROM clicks
        WHERE link_id = $1 AND created_at >= $2 AND created_at < $3
        GROUP BY ${column}
        ORDER BY count(*) DESC, ${column} ASC NULLS LAST
        LIMIT $4 OFFSET $5`,
      [linkId, range.from.toISOString(), end.toISOString(), page.perPage, offset],
    );
    const total =
      rows.length > 0
        ? rows[0].total
        : offset === 0
          ? 0
          : await this.countValues(linkId, column, range.from, end);
    return { items: rows.map((row) => ({ value: row.value, count: row.count })), total };
  }

  /** Total clicks of a link in a range. */
  async total(linkId: number, range: StatsRange): Promise<number> {
    await this.clicks.settle([linkId]);
    const end = new Date(range.to.getTime() + DAY_MS);
    const [row] = await this.dataSource.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM clicks WHERE link_id = $1 AND created_at >= $2 AND created_at < $3',
      [linkId, range.from.toISOString(), end.toISOString()],
    );
    return row.count;
  }

  private async countValues(linkId: number, column: string, from: Date, end: Date): Promise<number> {
    const [row] = await this.dataSource.query<{ count: number }[]>(
      `SELECT count(DISTINCT COALESCE(${column}, '')) ::int AS count FROM clicks
        WHERE link_id = $1 AND created_at >= $2 AND created_at < $3`,
      [linkId, from.toISOString(), end.toISOString()],
    );
    return row.count;
  }
}
