import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { ListQueryDto } from '../../common/list-query.dto';
import { FormEnum, Nullable } from '../../common/validation';

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
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (match === null) return value.trim() === '' ? null : value;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : value;
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
