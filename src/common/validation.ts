import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsString,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  type ValidationArguments,
  type ValidationError,
} from 'class-validator';
import type { FieldErrors } from './exceptions';
import { integerEnum, namedEnum } from './openapi';
import {
  appUrlProblem,
  canonicalUrl,
  MAX_URL_LENGTH,
  urlProblem,
  type UrlProblem,
  type UrlSchemes,
} from './url-rules';

/*
 * Form input arrives as strings: these decorators turn it into typed values explicitly (no implicit conversion,
 * which would make "false" true) and give Laravel's messages, so that phpShort clients read familiar errors.
 * Each also declares its OpenAPI schema (type, enum, bounds, format) from the same constants as its rule, so the
 * document cannot say one thing while the validation does another.
 */

/** What a field's documentation adds to its rule: a description, an example. */
export interface FieldDocs {
  description?: string;
  example?: unknown;
}

/** The documentation options of a field, a default description under the caller's. */
function docs(options: FieldDocs, defaultDescription?: string): FieldDocs {
  const description = options.description ?? defaultDescription;
  return {
    ...(description === undefined ? {} : { description }),
    ...(options.example === undefined ? {} : { example: options.example }),
  };
}

/** The OpenAPI half of a field decorator; absent fields stay optional until `Required()` says otherwise. */
function documented(schema: Record<string, unknown>, rule: PropertyDecorator): PropertyDecorator {
  return applyDecorators(rule, ApiProperty({ required: false, ...schema }));
}

/** "per_page" reads as "per page" in a message, as Laravel writes it. */
function label(args: ValidationArguments): string {
  return args.property.replace(/_/g, ' ');
}

const messages = {
  required: (args: ValidationArguments) => `The ${label(args)} field is required.`,
  string: (args: ValidationArguments) => `The ${label(args)} field must be a string.`,
  integer: (args: ValidationArguments) => `The ${label(args)} field must be an integer.`,
  invalid: (args: ValidationArguments) => `The selected ${label(args)} is invalid.`,
  min: (args: ValidationArguments) =>
    `The ${label(args)} field must be at least ${String(args.constraints[0])}.`,
  max: (args: ValidationArguments) =>
    `The ${label(args)} field must not be greater than ${String(args.constraints[0])}.`,
  minLength: (args: ValidationArguments) =>
    `The ${label(args)} field must be at least ${String(args.constraints[0])} characters.`,
  maxLength: (args: ValidationArguments) =>
    `The ${label(args)} field must not be greater than ${String(args.constraints[0])} characters.`,
  nullCharacter: (args: ValidationArguments) => `The ${label(args)} field must not contain null characters.`,
};

/**
 * Characters as PostgreSQL counts them in a varchar(n): code points. validator.js's isLength does not count
 * variation selectors (U+FE0F), so a value it accepts could overflow the column and fail as a 500.
 */
function characterCount(value: string): number {
  return [...value].length;
}

/** The largest value of an integer column, and so of any id. */
export const MAX_ID = 2_147_483_647;

/** An empty string (or whitespace) means null, as the contract says of form values. */
function emptyToNull(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? null : value;
}

/** A digit string becomes a number; anything else is left for the validator to refuse. */
function toInteger(value: unknown): unknown {
  const nulled = emptyToNull(value);
  if (typeof nulled === 'string' && /^\s*-?\d{1,15}\s*$/.test(nulled)) return Number(nulled);
  return nulled;
}

/** `0 1 true false`, as strings or as JSON. */
export function toBoolean(value: unknown): unknown {
  const nulled = emptyToNull(value);
  switch (nulled) {
    case true:
    case 1:
    case '1':
    case 'true':
      return true;
    case false:
    case 0:
    case '0':
    case 'false':
      return false;
    default:
      return nulled;
  }
}

/** Skips validation when the field is absent; null (an empty string) is still validated. */
export function Optional(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    ApiProperty({ required: false }),
  );
}

/** Skips validation when the field is absent or empty: for nullable fields and optional query parameters. */
export function Nullable(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined && value !== null),
    ApiProperty({ required: false, nullable: true }),
  );
}

export function Required(): PropertyDecorator {
  return applyDecorators(IsDefined({ message: messages.required }), ApiProperty({ required: true }));
}

/**
 * A field an update may leave out (what is absent stays as it is), but may not empty: given, it is required.
 * The same as `@Optional() @Required()`, in the order decorators written so apply.
 */
export function OptionalNotNull(): PropertyDecorator {
  return applyDecorators(Required(), Optional());
}

/** A trimmed string of `min`..`max` characters; empty means null. */
export function FormString(options: { min?: number; max: number } & FieldDocs): PropertyDecorator {
  const schema = { type: 'string', minLength: options.min ?? 1, maxLength: options.max };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }) => {
      const nulled = emptyToNull(value);
      return typeof nulled === 'string' ? nulled.trim() : nulled;
    })(target, key);
    IsString({ message: messages.string })(target, key);
    // PostgreSQL text cannot hold U+0000: refused here rather than failing in the query.
    ValidateBy(
      {
        name: 'noNullCharacter',
        validator: { validate: (value) => typeof value === 'string' && !value.includes('\u0000') },
      },
      { message: messages.nullCharacter },
    )(target, key);
    ValidateBy(
      {
        name: 'minLength',
        constraints: [options.min ?? 1],
        validator: {
          validate: (value) => typeof value === 'string' && characterCount(value) >= (options.min ?? 1),
        },
      },
      { message: messages.minLength },
    )(target, key);
    ValidateBy(
      {
        name: 'maxLength',
        constraints: [options.max],
        validator: { validate: (value) => typeof value === 'string' && characterCount(value) <= options.max },
      },
      { message: messages.maxLength },
    )(target, key);
  });
}

/** An integer sent as digits, with optional bounds. */
export function FormInt(options: { min?: number; max?: number } & FieldDocs = {}): PropertyDecorator {
  const schema = { type: 'integer', minimum: options.min, maximum: options.max };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }) => toInteger(value))(target, key);
    IsInt({ message: messages.integer })(target, key);
    if (options.min !== undefined) Min(options.min, { message: messages.min })(target, key);
    if (options.max !== undefined) Max(options.max, { message: messages.max })(target, key);
  });
}

/** An id, 1 to {@link MAX_ID}; with `orNone`, 0 too, which names none (a link's space). */
export function FormId({
  orNone = false,
  ...options
}: { orNone?: boolean } & FieldDocs = {}): PropertyDecorator {
  return FormInt({ min: orNone ? 0 : 1, max: MAX_ID, ...options });
}

/**
 * One of a fixed set of integers, sent as digits; documented as the enum `enumName`, each value named by
 * `valueNames` where the numbers mean something (`x-enumNames`, which client generators turn into constants).
 */
export function FormIntIn(
  values: readonly number[],
  enumName: string,
  options: { valueNames?: readonly string[]; enumDescription?: string } & FieldDocs = {},
): PropertyDecorator {
  const schema = integerEnum(values, enumName, options.valueNames, options.enumDescription);
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }) => toInteger(value))(target, key);
    IsIn(values as number[], { message: messages.invalid })(target, key);
  });
}

/**
 * One of a fixed set of strings (`asc`, `desc`, ...), documented as the enum `enumName`. The field is a reference
 * to the enum, which cannot carry an example beside it: `example` is the enum's own, for every field that names it.
 */
export function FormEnum(
  values: readonly string[],
  enumName: string,
  { example, ...options }: FieldDocs = {},
): PropertyDecorator {
  const schema = {
    type: 'string',
    enum: [...values],
    enumName,
    ...(example === undefined ? {} : { enumSchema: { type: 'string', example } }),
  };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }) => emptyToNull(value))(target, key);
    IsIn(values as string[], { message: messages.invalid })(target, key);
  });
}

/**
 * `0 1 true false` as a boolean; documented as phpShort's 0 and 1, which it also answers, or a JSON boolean (a
 * form's `true` and `false` are strings that a boolean schema reads too).
 */
export function FormBool(options: FieldDocs = {}): PropertyDecorator {
  const read = '0 or 1; `true` and `false` are read too.';
  const description = options.description === undefined ? read : `${options.description} ${read}`;
  return documented(
    {
      anyOf: [{ type: 'integer', enum: [0, 1] }, { type: 'boolean' }],
      ...docs({ ...options, description }),
    },
    (target, key) => {
      Transform(({ value }) => toBoolean(value))(target, key);
      IsBoolean({ message: (args) => `The ${label(args)} field must be true or false.` })(target, key);
    },
  );
}

/**
 * A URL field: read (`read`, what is kept of a string), refused with the problem `problemOf` names, the scheme's
 * refusal saying which kinds of URL the field takes (`kind`).
 */
function urlField(
  schema: Record<string, unknown>,
  read: (text: string) => string,
  problemOf: (value: string) => UrlProblem | null,
  kind: string,
): PropertyDecorator {
  return documented(schema, (target, key) => {
    Transform(({ value }) => {
      const nulled = emptyToNull(value);
      return typeof nulled === 'string' ? read(nulled.trim()) : nulled;
    })(target, key);
    IsString({ message: messages.string })(target, key);
    ValidateBy(
      {
        name: 'url',
        validator: {
          validate: (value) => typeof value === 'string' && problemOf(value) === null,
          defaultMessage: (args) => {
            const problem = problemOf(String(args?.value));
            if (problem === 'length') {
              return `The ${label(args!)} field must not be greater than ${MAX_URL_LENGTH} characters.`;
            }
            if (problem === 'scheme') return `The ${label(args!)} field must be ${kind}.`;
            return `The ${label(args!)} field must be a valid URL.`;
          },
        },
      },
      {},
    )(target, key);
  });
}

/** A field's description: the caller's, then what the rule reads. */
function describedAs(options: FieldDocs, read: string): FieldDocs {
  return docs({
    ...options,
    description: options.description === undefined ? read : `${options.description} ${read}`,
  });
}

/**
 * An absolute http or https URL of at most 2048 characters in its WHATWG form, which is what is kept;
 * `javascript:`, `data:` and the like never.
 */
export function FormUrl(options: FieldDocs & { schemes?: UrlSchemes } = {}): PropertyDecorator {
  const schemes = options.schemes ?? 'web';
  const kind = schemes === 'https' ? 'https' : 'http or https';
  // No `format: uri`: what is read is what a browser reads (an IRI, `https:\\a.example`, spaces around it).
  const read = `An absolute ${kind} URL as a browser reads it, kept in its WHATWG form, at most 2048 characters in that form.`;
  const schema = { type: 'string', maxLength: MAX_URL_LENGTH, example: 'https://example.com/page' };
  return urlField(
    { ...schema, ...describedAs(options, read) },
    canonicalUrl,
    (value) => urlProblem(value, schemes),
    `an ${kind} URL`,
  );
}

/**
 * A link into an app (`myapp://open/item/7`) or an https URL, at most 2048 characters, kept as sent (trimmed):
 * never `javascript:`, `data:`, `file:` and the like, nor plain http.
 */
export function FormAppUrl(options: FieldDocs = {}): PropertyDecorator {
  const read = 'An app link (its own scheme, as `myapp://item/7`) or an https URL, at most 2048 characters.';
  const schema = { type: 'string', maxLength: MAX_URL_LENGTH, example: 'myapp://open/spring-sale' };
  return urlField(
    { ...schema, ...describedAs(options, read) },
    (text) => text,
    appUrlProblem,
    'an app link or an https URL',
  );
}

/**
 * A JSON document kept as text: a string that holds a JSON object or list, or, in a JSON body, the object or list
 * itself (written back as text), at most `maxBytes` of UTF-8; empty or null clears it. Not `Nullable()`: OpenAPI 3.0
 * has no `nullable` beside `anyOf`, so the string is the nullable one.
 */
export function FormJsonDocument(options: FieldDocs & { maxBytes: number; size: string }): PropertyDecorator {
  const { maxBytes, size } = options;
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined && value !== null),
    ApiProperty({
      required: false,
      anyOf: [
        { type: 'string', maxLength: maxBytes, nullable: true },
        { type: 'object' },
        { type: 'array', items: {} },
      ],
      ...docs(options),
    }),
    Transform(({ value }: { value: unknown }) => {
      if (value === '' || value === null) return null;
      if (typeof value === 'object') return JSON.stringify(value);
      return typeof value === 'string' ? value.trim() : value;
    }),
    // In this order the first that fails names the field's problem: its type, its size, then its JSON.
    IsString({ message: (args) => `The ${label(args)} field must be a JSON document.` }),
    ValidateBy(
      {
        name: 'jsonDocumentSize',
        validator: { validate: (value) => typeof value === 'string' && Buffer.byteLength(value) <= maxBytes },
      },
      { message: (args) => `The ${label(args)} field must be at most ${size}.` },
    ),
    ValidateBy(
      {
        name: 'jsonDocument',
        validator: { validate: (value) => typeof value === 'string' && isJsonDocument(value) },
      },
      { message: (args) => `The ${label(args)} field must be a JSON object or list.` },
    ),
  );
}

function isJsonDocument(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

const MAX_SECRET_LENGTH = 128;

/** A secret (password): 1..`max` characters (128 unless told), taken as sent, never trimmed. */
export function FormSecret(options: FieldDocs & { max?: number } = {}): PropertyDecorator {
  const max = options.max ?? MAX_SECRET_LENGTH;
  const schema = { type: 'string', format: 'password', minLength: 1, maxLength: max };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value))(target, key);
    IsString({ message: (args) => `The ${label(args)} field must be a string.` })(target, key);
    ValidateBy(
      {
        name: 'secretLength',
        validator: {
          validate: (value) => typeof value === 'string' && value.length >= 1 && characterCount(value) <= max,
        },
      },
      { message: (args) => `The ${label(args)} field must not be greater than ${max} characters.` },
    )(target, key);
  });
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
  // A zone can move a date past the four-digit years, which neither the API nor its clients can write.
  if (Number.isNaN(parsed.getTime()) || parsed.getUTCFullYear() > 9999) return null;
  return parsed;
}

/**
 * A date-time as `parseDateTime` reads it, turned into a Date. Its example is the field's own, since what a field
 * accepts depends on its rule (a key's expiry must be in the future, a period's end after its start).
 */
export function FormDateTime(options: FieldDocs & { example: string }): PropertyDecorator {
  const schema = {
    type: 'string',
    // Either form, as one pattern: `Y-m-d H:i`, or the ISO form with its zone.
    pattern: `^(?:${PLAIN_DATE_TIME.source.slice(1, -1)}|${ISO_DATE_TIME.source.slice(1, -1)})$`,
    example: options.example,
    description: '`Y-m-d H:i` in UTC, or an ISO 8601 date-time with a zone.',
  };
  return documented({ ...schema, ...docs(options, schema.description) }, (target, key) => {
    Transform(({ value }) => {
      const nulled = emptyToNull(value);
      if (typeof nulled !== 'string') return nulled;
      return parseDateTime(nulled.trim()) ?? nulled;
    })(target, key);
    ValidateBy(
      { name: 'formDateTime', validator: { validate: (value) => value instanceof Date } },
      { message: (args) => `The ${label(args)} field must be a valid date in the format Y-m-d H:i.` },
    )(target, key);
  });
}

/**
 * A list field as sent: an array, or one value as a list of one; empty entries dropped, and each string entry read
 * by `read`. Undefined stays undefined (the field was not sent).
 */
function sentList(value: unknown, read: (item: string) => unknown): unknown[] | undefined {
  if (value === undefined) return undefined;
  const list: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
  return list
    .filter((item) => item !== null && !(typeof item === 'string' && item.trim() === ''))
    .map((item) => (typeof item === 'string' ? read(item) : item));
}

/**
 * A list of ids (`pixel_ids[]=3&pixel_ids[]=4`, a JSON array, or one value). Empty entries are dropped, so
 * `pixel_ids[]=` or `pixel_ids=` sends an empty list.
 */
export function FormIdList(options: { max: number } & FieldDocs): PropertyDecorator {
  const schema = {
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: MAX_ID },
    maxItems: options.max,
  };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }: { value: unknown }) =>
      sentList(value, (item) => (/^\s*\d{1,10}\s*$/.test(item) ? Number(item) : item)),
    )(target, key);
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
    Max(MAX_ID, { each: true, message: () => 'The selected id is invalid.' })(target, key);
  });
}

/**
 * A list of names (`tags[]=news&tags[]=tech`, a JSON array, or one value), each trimmed and of `min`..`max`
 * characters. Empty entries are dropped, so `tags[]=` sends an empty list.
 */
export function FormNameList(options: { maxItems: number; max: number } & FieldDocs): PropertyDecorator {
  const schema = {
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: options.max },
    maxItems: options.maxItems,
  };
  const isName = (item: unknown) =>
    typeof item === 'string' && !item.includes('\u0000') && characterCount(item) <= options.max;
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }: { value: unknown }) => sentList(value, (item) => item.trim()))(target, key);
    IsArray({ message: (args) => `The ${label(args)} field must be an array.` })(target, key);
    ValidateBy(
      {
        name: 'maxItems',
        validator: { validate: (value) => Array.isArray(value) && value.length <= options.maxItems },
      },
      { message: (args) => `The ${label(args)} field must not have more than ${options.maxItems} items.` },
    )(target, key);
    ValidateBy(
      {
        name: 'names',
        validator: { validate: (value) => Array.isArray(value) && value.every(isName) },
      },
      {
        message: (args) =>
          `Each item of the ${label(args)} field must be a string of 1 to ${options.max} characters.`,
      },
    )(target, key);
  });
}

/**
 * A list of values from a fixed set (`scopes[]=links.read&scopes[]=stats.read`, a JSON array, or one value), each
 * named `field.N` when it is not one of them. Empty entries are dropped; fewer than `min` is refused.
 */
export function FormEnumList(
  values: readonly string[],
  enumName: string,
  options: { min?: number; max: number } & FieldDocs,
): PropertyDecorator {
  const min = options.min ?? 0;
  const schema = {
    type: 'array',
    items: namedEnum(enumName, values),
    minItems: min,
    maxItems: options.max,
  };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }: { value: unknown }) => sentList(value, (item) => item.trim()))(target, key);
    IsArray({ message: (args) => `The ${label(args)} field must be an array.` })(target, key);
    ValidateBy(
      {
        name: 'listSize',
        validator: {
          validate: (value) => Array.isArray(value) && value.length >= min && value.length <= options.max,
        },
      },
      {
        message: (args) =>
          min > 0 && Array.isArray(args.value) && args.value.length < min
            ? `The ${label(args)} field must have at least ${min} item${min === 1 ? '' : 's'}.`
            : `The ${label(args)} field must not have more than ${options.max} items.`,
      },
    )(target, key);
    IsIn(values as string[], { each: true, message: messages.invalid })(target, key);
  });
}

/** Flattens class-validator's tree into the contract's field map, nested names joined by dots. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors) {
    const name =
      error.property === undefined || error.property === '' ? 'body' : `${prefix}${error.property}`;
    if (error.constraints !== undefined) {
      fields[name] = Object.values(error.constraints);
    }
    if (error.children !== undefined && error.children.length > 0) {
      Object.assign(fields, flattenValidationErrors(error.children, `${name}.`));
    }
  }
  return fields;
}

/** `Y-m-d` as a UTC midnight; an impossible day (Feb 30) stays a string and is refused. */
export function parseDay(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const day = value.trim();
  if (day === '') return null;
  // The link dates' calendar check, at midnight.
  return (/^\d{4}-\d{2}-\d{2}$/.test(day) ? parseDateTime(`${day} 00:00`) : null) ?? value;
}

/** A day, `Y-m-d` (UTC), read as its midnight; the field's description given. */
export function FormDay(description: string): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ type: 'string', format: 'date', required: false, description })(target, key);
    Transform(({ value }) => parseDay(value))(target, key);
    ValidateBy(
      { name: 'day', validator: { validate: (value) => value instanceof Date } },
      { message: (args) => `The ${args.property} field must be a valid date in the format Y-m-d.` },
    )(target, key);
  };
}

/** A password a person signs in with: 10 to 256 characters, taken as sent, never trimmed (contract §11). */
export function FormPassword(options: FieldDocs = {}): PropertyDecorator {
  const schema = {
    type: 'string',
    format: 'password',
    minLength: 10,
    maxLength: 256,
    example: 'correct horse battery',
  };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value))(target, key);
    IsString({ message: messages.string })(target, key);
    ValidateBy(
      {
        name: 'passwordLength',
        validator: {
          validate: (value) =>
            typeof value === 'string' && characterCount(value) >= 10 && characterCount(value) <= 256,
        },
      },
      { message: (args) => `The ${label(args)} field must be between 10 and 256 characters.` },
    )(target, key);
  });
}

/** An email address: trimmed, in lower case, at most 255 characters, `name@host.tld` without spaces. */
export function FormEmail(options: FieldDocs = {}): PropertyDecorator {
  const schema = { type: 'string', format: 'email', maxLength: 255, example: 'ann@example.com' };
  return documented({ ...schema, ...docs(options) }, (target, key) => {
    Transform(({ value }) => {
      const nulled = emptyToNull(value);
      return typeof nulled === 'string' ? nulled.trim().toLowerCase() : nulled;
    })(target, key);
    IsString({ message: messages.string })(target, key);
    ValidateBy(
      {
        name: 'email',
        validator: {
          validate: (value) =>
            typeof value === 'string' && value.length <= 255 && /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/.test(value),
        },
      },
      { message: (args) => `The ${label(args)} field must be a valid email address.` },
    )(target, key);
  });
}
