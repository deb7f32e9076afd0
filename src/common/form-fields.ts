import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsInt,
  IsString,
  Min,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { urlProblem, MAX_URL_LENGTH } from './url-rules';
import { toBoolean } from './validation';

/** Field decorators for the link, domain and pixel forms: URLs, dates, secrets, booleans and id lists. */

function label(args: ValidationArguments): string {
  return args.property.replace(/_/g, ' ');
}

function emptyToNull(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? null : value;
}

/** `0 1 true false` as a boolean. */
export function FormBool(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => toBoolean(value))(target, key);
    IsBoolean({ message: (args) => `The ${label(args)} field must be true or false.` })(target, key);
  };
}

/** An absolute http or https URL of at most 2048 characters; `javascript:`, `data:` and the like never. */
export function FormUrl(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => {
      const nulled = emptyToNull(value);
      return typeof nulled === 'string' ? nulled.trim() : nulled;
    })(target, key);
    IsString({ message: (args) => `The ${label(args)} field must be a string.` })(target, key);
    ValidateBy(
      {
        name: 'formUrl',
        validator: {
          validate: (value) => typeof value === 'string' && urlProblem(value) === null,
          defaultMessage: (args) => {
            const problem = urlProblem(String(args?.value));
            if (problem === 'length') {
              return `The ${label(args!)} field must not be greater than ${MAX_URL_LENGTH} characters.`;
            }
            if (problem === 'scheme') return `The ${label(args!)} field must be an http or https URL.`;
            return `The ${label(args!)} field must be a valid URL.`;
          },
        },
      },
      {},
    )(target, key);
  };
}

/** A secret (password): 1..128 characters, taken as sent, never trimmed. */
export function FormSecret(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value))(target, key);
    IsString({ message: (args) => `The ${label(args)} field must be a string.` })(target, key);
    ValidateBy(
      {
        name: 'secretLength',
        validator: {
          validate: (value) => typeof value === 'string' && value.length >= 1 && [...value].length <= 128,
        },
      },
      { message: (args) => `The ${label(args)} field must not be greater than 128 characters.` },
    )(target, key);
  };
}

const PLAIN_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * `Y-m-d H:i` in UTC, or ISO 8601 with a zone. A date that does not exist (Feb 30, 24:00) is null here, where
 * JavaScript's Date would roll it over into the next month.
 */
export function parseDateTime(value: string): Date | null {
  const match = PLAIN_DATE_TIME.exec(value) ?? ISO_DATE_TIME.exec(value);
  if (match === null) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  const calendar = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day ||
    calendar.getUTCHours() !== hour ||
    calendar.getUTCMinutes() !== minute ||
    calendar.getUTCSeconds() !== second
  ) {
    return null;
  }
  const parsed = new Date(match[7] === undefined ? `${value.replace(' ', 'T')}:00Z` : value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** A date-time as `parseDateTime` reads it, turned into a Date. */
export function FormDateTime(): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => {
      const nulled = emptyToNull(value);
      if (typeof nulled !== 'string') return nulled;
      return parseDateTime(nulled.trim()) ?? nulled;
    })(target, key);
    ValidateBy(
      { name: 'formDateTime', validator: { validate: (value) => value instanceof Date } },
      { message: (args) => `The ${label(args)} field must be a valid date in the format Y-m-d H:i.` },
    )(target, key);
  };
}

/**
 * A list of ids (`pixel_ids[]=3&pixel_ids[]=4`, a JSON array, or one value). Empty entries are dropped, so
 * `pixel_ids[]=` or `pixel_ids=` sends an empty list.
 */
export function FormIdList(options: { max: number }): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }: { value: unknown }) => {
      if (value === undefined) return undefined;
      const list: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
      return list
        .filter((item) => item !== null && !(typeof item === 'string' && item.trim() === ''))
        .map((item) => (typeof item === 'string' && /^\s*\d{1,10}\s*$/.test(item) ? Number(item) : item));
    })(target, key);
    IsArray({ message: (args) => `The ${label(args)} field must be an array.` })(target, key);
    ValidateBy(
      {
        name: 'maxItems',
        validator: { validate: (value) => Array.isArray(value) && value.length <= options.max },
      },
      { message: (args) => `The ${label(args)} field must not have more than ${options.max} items.` },
    )(target, key);
    IsInt({ each: true, message: () => 'The selected id is invalid.' })(target, key);
    Min(1, { each: true, message: () => 'The selected id is invalid.' })(target, key);
  };
}
