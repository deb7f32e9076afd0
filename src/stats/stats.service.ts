import type { VisitorDimension } from '../clicks/click-dimensions';
import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ClickWriter } from '../clicks/click-writer';
import { ValidationFailedException } from '../common/exceptions';
import type { SortDirection } from '../common/list-query.dto';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import { isoDate } from '../common/dates';
import type { Page, PageRequest } from '../common/pagination';
import {
  STATS_DIMENSIONS,
  isClicksOverTime,
  type StatsDimension,
  type StatsName,
  type StatsSortBy,
} from './dto/stats-query.dto';
import {
  StatsRepository,
  type ClickBounds,
  type ClickBucket,
  type DayRange,
  type ListedClick,
  type ReportOrder,
  type StatsScope,
} from './stats.repository';

export type { ClickBucket } from './stats.repository';

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

class RollupHour {
  @ApiDateTime()
  hour!: string;

  @ApiInteger({ minimum: 1 })
  clicks!: number;
}

class RollupDay {
  @ApiProperty({ enum: STATS_DIMENSIONS, enumName: 'StatsDimension' })
  name!: StatsDimension;

  @ApiProperty({ type: 'string', format: 'date' })
  day!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'GB',
    description: "As stored; null for unknown, and for a `target` the link's own `url`.",
  })
  value!: string | null;

  @ApiInteger({ minimum: 1 })
  clicks!: number;
}

/** A link's stored rollups. */
export class LinkRollups {
  @ApiInteger()
  link_id!: number;

  @ApiProperty({ type: [RollupHour] })
  hours!: RollupHour[];

  @ApiProperty({ type: [RollupDay] })
  days!: RollupDay[];
}

/** The days a report counts, both included. */
export type StatsRange = DayRange;

/** What a stats answer keeps, and in which order. */
export interface StatsOrder {
  /** Only the values that contain it, in any case; null for all. */
  search: string | null;
  sortBy: StatsSortBy;
  direction: SortDirection;
}

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
/** Dates are written with four-digit years, in the API and in SQL: 9999-12-31 is the last day there is. */
const LAST_DAY = new Date(Date.UTC(9999, 11, 31));
/** phpShort's longest range: a hundred years of days. */
const MAX_RANGE_DAYS = 36_500;

/**
 * Cities are listed only where they are known: every city is unknown without a city database, and the list is
 * then empty rather than one null.
 */
const KNOWN_ONLY: ReadonlySet<StatsDimension> = new Set(['city']);

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

/**
 * The clicks an export writes: the days of `from` and `to` where given, validated as the stats validate them (see
 * {@link statsRange}), and no bound on a side left out, so that an export without them writes every click held.
 */
export function exportBounds(
  from: Date | null | undefined,
  to: Date | null | undefined,
  firstDay: Date,
): ClickBounds {
  const range = statsRange(from, to, firstDay);
  return {
    from: from == null ? null : range.from,
    until: to == null ? null : new Date(range.to.getTime() + DAY_MS),
  };
}

/**
 * How deep a link's clicks are listed: `page` times `per_page` at most. A page is cut from the clicks' index by
 * reading every click before it, so a page 10,000 deep costs a few milliseconds and one a million deep would not;
 * what lies deeper is reached by narrowing `from` and `to`, or by the export, which streams every click.
 */
export const MAX_LISTED_CLICKS = 10_000;

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
    private readonly repository: StatsRepository,
    private readonly clicks: ClickWriter,
  ) {}

  /** The links' rollups as stored, with every click counted so far written first. */
  async rollups(linkIds: number[]): Promise<LinkRollups[]> {
    await this.clicks.settle(linkIds);
    return (await this.repository.rollups(linkIds)).map((link) => ({
      ...link,
      hours: link.hours.map(({ hour, clicks }) => ({ hour: isoDate(hour), clicks })),
    }));
  }

  /**
   * The stats API's answer, as phpShort gives it: every value that has clicks in the range, with its count. For
   * `click`, the clicks per hour, day, month or year (see {@link clickBucket}); for a dimension, its values as
   * phpShort writes them (null where unknown, except cities, listed only where known). Values are searched and
   * sorted as text, in any case: by value with MySQL's order of nulls (first ascending, last descending); by count
   * with equal counts by value, unknown last. A page of them, or all for a null page.
   */
  async report(
    scope: StatsScope,
    name: StatsName,
    range: StatsRange,
    order: StatsOrder,
    page: PageRequest | null,
  ): Promise<Page<StatsRow>> {
    // Every visit this instance answered is counted in what it reports.
    await this.clicks.settle('linkId' in scope ? [scope.linkId] : undefined);
    const sort: ReportOrder = { by: order.sortBy, direction: order.direction };
    if (isClicksOverTime(name)) {
      return this.repository.overTime(
        scope,
        range,
        clickBucket(range),
        { search: order.search, order: sort },
        page,
      );
    }
    return this.repository.byValue(
      scope,
      name,
      range,
      'phpshort',
      { knownOnly: KNOWN_ONLY.has(name), search: order.search, order: sort },
      page,
    );
  }

  /**
   * For the public stats page: clicks per day (every day of the range, oldest first), or counts per stored value
   * of a dimension (country `GB`, language `en`, city `London`; highest first).
   */
  async pageReport(
    linkId: number,
    name: 'clicks' | VisitorDimension,
    range: StatsRange,
    page: PageRequest,
  ): Promise<Page<StatsRow>> {
    await this.clicks.settle([linkId]);
    if (name === 'clicks') return this.repository.perDay(linkId, range, page);
    return this.repository.byValue(
      { linkId },
      name,
      range,
      'page',
      { knownOnly: false, search: null, order: 'page' },
      page,
    );
  }

  /**
   * A page of a link's clicks in the range, newest first by default, with how many the range holds; refused past
   * {@link MAX_LISTED_CLICKS} deep.
   */
  async listClicks(
    linkId: number,
    range: StatsRange,
    page: PageRequest,
    direction: SortDirection,
  ): Promise<Page<ListedClick>> {
    if (page.page * page.perPage > MAX_LISTED_CLICKS) {
      const deepest = Math.floor(MAX_LISTED_CLICKS / page.perPage);
      throw ValidationFailedException.of(
        'page',
        `The page field must not be greater than ${deepest} with per_page ${page.perPage}: narrow from and to, ` +
          'or export the clicks.',
      );
    }
    await this.clicks.settle([linkId]);
    const [items, total] = await Promise.all([
      this.repository.clickPage(linkId, range, page, direction),
      this.repository.clickTotal(linkId, range),
    ]);
    return { items, total };
  }

  /** Total clicks of a link in a range. */
  async total(linkId: number, range: StatsRange): Promise<number> {
    await this.clicks.settle([linkId]);
    return this.repository.total(linkId, range);
  }
}
