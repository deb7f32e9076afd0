import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { SORT_DIRECTIONS, type SortDirection } from '../../common/list-query.dto';
import { FormEnum, FormString, Nullable, parseDateTime } from '../../common/validation';

/** What a click records of its visitor, phpShort's stats names (with `continent`, which phpShort lacks). */
export const STATS_DIMENSIONS = [
  'referrer',
  'country',
  'city',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
] as const;
export type StatsDimension = (typeof STATS_DIMENSIONS)[number];

/** `click` is the clicks over time (`clicks` too, as this service named it first); the others, a dimension. */
export const STATS_NAMES = ['click', 'clicks', ...STATS_DIMENSIONS] as const;
export type StatsName = (typeof STATS_NAMES)[number];

export const STATS_SEARCH_BY = ['value'] as const;
export const STATS_SORT_BY = ['count', 'value'] as const;
export type StatsSortBy = (typeof STATS_SORT_BY)[number];

/** `Y-m-d` as a UTC midnight; an impossible day (Feb 30) stays a string and is refused. */
export function parseDay(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const day = value.trim();
  if (day === '') return null;
  // The link dates' calendar check, at midnight.
  return (/^\d{4}-\d{2}-\d{2}$/.test(day) ? parseDateTime(`${day} 00:00`) : null) ?? value;
}

function Day(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => parseDay(value))(target, key);
    ValidateBy(
      { name: 'day', validator: { validate: (value) => value instanceof Date } },
      { message: (args) => `The ${args.property} field must be a valid date in the format Y-m-d.` },
    )(target, key);
  };
}

/** phpShort's stats parameters. The answer is one whole list: `per_page` and `page` are not read. */
export class StatsQueryDto {
  /** `click` (clicks over time; `clicks` too) or a dimension; `click` when absent. */
  @Nullable()
  @FormEnum(STATS_NAMES)
  name?: StatsName | null;

  /** First day, `Y-m-d` (UTC); the day the link was made when absent. */
  @Nullable()
  @Day()
  from?: Date | null;

  /** Last day, included; today when absent. */
  @Nullable()
  @Day()
  to?: Date | null;

  /** Only the values that contain this, in any case. */
  @Nullable()
  @FormString({ max: 255 })
  search?: string | null;

  @Nullable()
  @FormEnum(STATS_SEARCH_BY)
  search_by?: (typeof STATS_SEARCH_BY)[number] | null;

  /** `count` by default; `value` for clicks over time. */
  @Nullable()
  @FormEnum(STATS_SORT_BY)
  sort_by?: StatsSortBy | null;

  /** `desc` by default; `asc` for clicks over time. */
  @Nullable()
  @FormEnum(SORT_DIRECTIONS)
  sort?: SortDirection | null;
}
