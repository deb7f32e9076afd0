import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClickWriter } from '../clicks/click-writer';
import { ValidationFailedException } from '../common/exceptions';
import type { Page, PageRequest } from '../common/pagination';
import type { StatsName } from './dto/stats-query.dto';

export interface StatsRow {
  value: string | null;
  count: number;
}

export interface StatsRange {
  from: Date;
  /** The last day, included. */
  to: Date;
}

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
/** Dates are written with four-digit years, in the API and in SQL: 9999-12-31 is the last day there is. */
const LAST_DAY = new Date(Date.UTC(9999, 11, 31));
/** Ten years of days is the most a per-day series lists. */
const MAX_RANGE_DAYS = 3660;

/** Columns of `clicks` by dimension name: a closed set, never client text, in the SQL. */
const DIMENSIONS: Record<Exclude<StatsName, 'clicks'>, string> = {
  referrer: 'referrer',
  country: 'country',
  continent: 'continent',
  browser: 'browser',
  operating_system: 'operating_system',
  device: 'device',
  language: 'language',
};

function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The requested days: by default the last 30, today included. */
export function statsRange(from: Date | null | undefined, to: Date | null | undefined): StatsRange {
  const last = to ?? today();
  const first = from ?? new Date(last.getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS);
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

@Injectable()
export class StatsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clicks: ClickWriter,
  ) {}

  /** Clicks per day (every day of the range, oldest first), or counts per value of a dimension (highest first). */
  async query(
    linkId: number,
    name: StatsName,
    range: StatsRange,
    page: PageRequest,
  ): Promise<Page<StatsRow>> {
    // Every visit this instance answered is counted in what it reports.
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
    const column = DIMENSIONS[name];
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
