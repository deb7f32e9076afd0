import { Injectable } from '@nestjs/common';
import { ClickWriter } from '../clicks/click-writer';
import { StatsRepository } from './stats.repository';
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

/** Clicks over time, every bucket of the range with its count, zeros included, oldest first. */
@Injectable()
export class ClickSeries {
  constructor(
    private readonly repository: StatsRepository,
    private readonly clicks: ClickWriter,
  ) {}

  async of(linkId: number, range: StatsRange): Promise<ClickSeriesResult> {
    await this.clicks.settle([linkId]);
    const unit = seriesUnit(range);
    const rows = await this.repository.buckets(linkId, range, unit);
    return { unit, buckets: rows.map((row) => ({ start: new Date(row.start), count: row.count })) };
  }
}
