import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClickWriter } from '../clicks/click-writer';
import type { StatsRange } from './stats.service';

const DAY_MS = 86_400_000;

/** The size of one bar of a clicks-over-time series. */
export type SeriesUnit = 'hour' | 'day' | 'month' | 'year';

export interface SeriesBucket {
  /** The bucket's first instant, UTC. */
  start: Date;
  count: number;
}

export interface ClickSeriesResult {
  unit: SeriesUnit;
  buckets: SeriesBucket[];
}

/**
 * The bucket rules of the stats API: hours for a single day, days under 90 days, months under 730 days, years
 * beyond; counted between the first and the last day of the range.
 */
export function seriesUnit(range: StatsRange): SeriesUnit {
  const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS);
  if (days <= 0) return 'hour';
  if (days < 90) return 'day';
  if (days < 730) return 'month';
  return 'year';
}

const INTERVALS: Record<SeriesUnit, string> = {
  hour: '1 hour',
  day: '1 day',
  month: '1 month',
  year: '1 year',
};

/** Clicks over time, every bucket of the range with its count, zeros included, oldest first. */
@Injectable()
export class ClickSeries {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clicks: ClickWriter,
  ) {}

  async of(linkId: number, range: StatsRange): Promise<ClickSeriesResult> {
    await this.clicks.settle([linkId]);
    const unit = seriesUnit(range);
    const end = new Date(range.to.getTime() + DAY_MS);
    // Buckets are UTC, whatever the session's time zone: timestamps are truncated as UTC wall-clock times.
    const rows: { start: string; count: number }[] = await this.dataSource.query(
      `WITH counted AS (
         SELECT date_trunc($4, created_at AT TIME ZONE 'UTC') AS bucket, count(*)::int AS count
           FROM clicks
          WHERE link_id = $1 AND created_at >= $2 AND created_at < $3
          GROUP BY 1)
       SELECT to_char(series.bucket, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, COALESCE(counted.count, 0) AS count
         FROM generate_series(
                date_trunc($4, $2::timestamptz AT TIME ZONE 'UTC'),
                $3::timestamptz AT TIME ZONE 'UTC' - interval '1 microsecond',
                $5::interval) AS series(bucket)
         LEFT JOIN counted ON counted.bucket = series.bucket
        ORDER BY series.bucket`,
      [linkId, range.from.toISOString(), end.toISOString(), unit, INTERVALS[unit]],
    );
    return { unit, buckets: rows.map((row) => ({ start: new Date(row.start), count: row.count })) };
  }
}
