import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { ListQueryDto } from '../../common/list-query.dto';
import { FormEnum, Nullable, parseDateTime } from '../../common/validation';

export const STATS_NAMES = [
  'clicks',
  'referrer',
  'country',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
] as const;
export type StatsName = (typeof STATS_NAMES)[number];

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

export class StatsQueryDto extends ListQueryDto {
  /** `clicks` (a count per day) or a dimension; `clicks` when absent. */
  @Nullable()
  @FormEnum(STATS_NAMES)
  name?: StatsName | null;

  /** First day, `Y-m-d` (UTC); 29 days before `to` when absent. */
  @Nullable()
  @Day()
  from?: Date | null;

  /** Last day, included; today when absent. */
  @Nullable()
  @Day()
  to?: Date | null;
}
