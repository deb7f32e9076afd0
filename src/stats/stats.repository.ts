import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page, PageRequest } from '../common/pagination';
import { STATS_DIMENSIONS, type StatsDimension } from './dto/stats-query.dto';

/** One value of a report and its clicks, as the queries answer it. */
export interface CountedValue {
  value: string | null;
  count: number;
}

/** Each dimension's number in `click_days` and `click_profile_dimensions`: its place among the stats names, from 1. */
export const DIMENSION_CODES = Object.fromEntries(
  STATS_DIMENSIONS.map((name, index) => [name, index + 1]),
) as Record<StatsDimension, number>;

/** A period of whole UTC days: `from` and `to` are midnights, both days included. */
export interface DayRange {
  from: Date;
  to: Date;
}

/** What a report keeps and how it orders it, as SQL made of closed choices only (never client text). */
export interface ReportShape {
  /** The value as shown, from the stored text `v.value` (null for unknown); `$names` is bound separately. */
  display: string;
  /** Leaves out unknown values. */
  knownOnly: boolean;
  /** `ILIKE` pattern of the values kept; null for all. */
  pattern: string | null;
  /** ORDER BY over `value` and `count`. */
  order: string;
  /** Extra parameter the display reads (the country names' JSON), if any. */
  names?: string;
}

const DAY_MS = 86_400_000;

function isoDay(day: Date): string {
  return day.toISOString().slice(0, 10);
}

/** The midnight after the range's last day. */
function endOf(range: DayRange): string {
  return new Date(range.to.getTime() + DAY_MS).toISOString();
}

/**
 * The stats queries. Every one reads the rollups that click batches keep (`click_hours`, `click_days`), never the
 * raw clicks, so that its cost follows the number of hours, days and distinct values in the period, not the
 * number of clicks. Both are read through their primary keys: (link, hour) and (link, dimension, day, value).
 */
@Injectable()
export class StatsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Clicks per bucket (`format`: a `to_char` pattern of UTC time) with clicks, ordered and paged as asked. */
  async overTime(
    linkId: number,
    range: DayRange,
    format: string,
    shape: Omit<ReportShape, 'display' | 'knownOnly'>,
    page: PageRequest | null,
  ): Promise<Page<CountedValue>> {
    const params: unknown[] = [linkId, range.from.toISOString(), endOf(range), format];
    return this.paged(
      `SELECT to_char(hour AT TIME ZONE 'UTC', $4) AS value, sum(clicks)::int AS count
         FROM click_hours
        WHERE link_id = $1 AND hour >= $2 AND hour < $3
        GROUP BY 1`,
      params,
      shape.pattern,
      shape.order,
      page,
    );
  }

  /** Clicks per value of a dimension in the period, shown, searched, ordered and paged as asked. */
  async byValue(
    linkId: number,
    dimension: StatsDimension,
    range: DayRange,
    shape: ReportShape,
    page: PageRequest | null,
  ): Promise<Page<CountedValue>> {
    const params: unknown[] = [linkId, DIMENSION_CODES[dimension], isoDay(range.from), isoDay(range.to)];
    const display = shape.display.replace(
      '$names',
      shape.names === undefined ? 'NULL' : `$${params.push(shape.names)}`,
    );
    // Values are summed by code over the days first (the index range of one link and dimension), then named.
    return this.paged(
      `SELECT ${display} AS value, sum(c.count)::int AS count
         FROM (SELECT value AS code, sum(clicks) AS count
                 FROM click_days
                WHERE link_id = $1 AND dimension = $2 AND day >= $3 AND day <= $4 ${shape.knownOnly ? 'AND value <> 0' : ''}
                GROUP BY value) c
         LEFT JOIN click_values v ON v.id = c.code
        GROUP BY 1`,
      params,
      shape.pattern,
      shape.order,
      page,
    );
  }

  /** Clicks of every day of the period, zeros included, oldest first, paged. */
  async perDay(linkId: number, range: DayRange, page: PageRequest): Promise<Page<CountedValue>> {
    const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS) + 1;
    const rows: CountedValue[] = await this.dataSource.query(
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
    return this.dataSource.query(
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
    const [row] = await this.dataSource.query<{ count: number }[]>(
      `SELECT COALESCE(sum(clicks), 0)::int AS count FROM click_hours WHERE link_id = $1 AND hour >= $2 AND hour < $3`,
      [linkId, range.from.toISOString(), endOf(range)],
    );
    return row.count;
  }

  /**
   * The rows of a query of (value, count) that match `pattern`, in `order`, one page of them (all for a null page)
   * with how many there are. Paged after the search and the order, as phpShort pages.
   */
  private async paged(
    query: string,
    params: unknown[],
    pattern: string | null,
    order: string,
    page: PageRequest | null,
  ): Promise<Page<CountedValue>> {
    const search = pattern === null ? '' : `WHERE value ILIKE $${params.push(pattern)} ESCAPE '\\'`;
    const limit =
      page === null
        ? ''
        : `LIMIT $${params.push(page.perPage)} OFFSET $${params.push((page.page - 1) * page.perPage)}`;
    const rows: (CountedValue & { total: number })[] = await this.dataSource.query(
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
    const [row] = await this.dataSource.query<{ total: number }[]>(
      `SELECT count(*)::int AS total FROM (${query}) counted ${search}`,
      params.slice(0, params.length - 2),
    );
    return { items: [], total: row.total };
  }
}
