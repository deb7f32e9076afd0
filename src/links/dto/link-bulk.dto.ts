import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { plainToInstance, Transform } from 'class-transformer';
import { IsArray, IsDefined, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { ValidationFailedException, type FieldErrors } from '../../common/exceptions';
import {
  FormBool,
  FormId,
  FormNameList,
  MAX_ID,
  Nullable,
  Optional,
  OptionalNotNull,
  Required,
} from '../../common/validation';
import { MAX_LINK_TAGS, MAX_TAG_NAME } from '../../tags/tag.entity';
import { LinkFiltersDto } from './link-list-query.dto';

/** The most links a bulk change or delete names by id (contract §14). */
export const MAX_BULK_IDS = 1000;

/** What a bulk change may do to each link; absent fields are left as they are. */
export class BulkLinkChangesDto {
  @Nullable()
  @FormId({
    orNone: true,
    description:
      "One of the account's spaces, which every link moves to; 0 or empty takes them out of their space (not for " +
      'a key restricted to spaces, which must name one of its own).',
  })
  space_id?: number | null;

  @OptionalNotNull()
  @FormBool({ description: '1 archives every link, 0 takes every link out of the archive.', example: 1 })
  archived?: boolean;

  @Optional()
  @FormNameList({
    maxItems: MAX_LINK_TAGS,
    max: MAX_TAG_NAME,
    description:
      'Tags added to every link after those it has, by name regardless of case; a name the workspace has no tag of ' +
      `makes one. A link may hold ${MAX_LINK_TAGS} tags in all.`,
    example: ['spring-sale'],
  })
  tags_add?: string[];

  @Optional()
  @FormNameList({
    maxItems: MAX_LINK_TAGS,
    max: MAX_TAG_NAME,
    description:
      'Tags taken off every link that holds them, by name regardless of case; none may be in `tags_add`.',
  })
  @ValidateBy(
    {
      name: 'apartFromTagsAdd',
      validator: {
        validate: (value, args) => {
          const added = new Set(((args?.object as BulkLinkChangesDto).tags_add ?? []).map(lowerCase));
          return !Array.isArray(value) || !value.some((name) => added.has(lowerCase(name)));
        },
      },
    },
    { message: 'The tags remove field must not name a tag of tags add.' },
  )
  tags_remove?: string[];
}

const CHANGES = ['space_id', 'archived', 'tags_add', 'tags_remove'] as const;

function lowerCase(name: unknown): unknown {
  return typeof name === 'string' ? name.toLowerCase() : name;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object field validated as an instance of `model` (its errors named `field.key`, as a form's brackets name
 * them); anything else but an object is refused on the field itself.
 */
function NestedObject(model: Type<object>, field: string): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }): unknown =>
      isPlainObject(value) ? plainToInstance(model, value) : value,
    ),
    ValidateBy(
      { name: 'object', validator: { validate: (value) => value instanceof model } },
      { message: `The ${field} field must be an object.` },
    ),
    ValidateNested(),
  );
}

/** The ids as sent: a list (a form's indexed object as its values), or one value as a list of one; digits read. */
function toIds({ value }: { value: unknown }): unknown {
  if (value === undefined || value === null) return value;
  const list = Array.isArray(value)
    ? (value as unknown[])
    : isPlainObject(value)
      ? Object.values(value)
      : [value];
  return list.map((item) =>
    typeof item === 'string' && /^\s*\d{1,15}\s*$/.test(item) ? Number(item) : item,
  );
}

/** Whether a body names its links by `filter`: then `ids` is not read. */
function byFilter(body: BulkLinksDto): boolean {
  return (body.ids === undefined || body.ids === null) && body.filter !== undefined && body.filter !== null;
}

/**
 * `DELETE /api/v1/links/bulk`, and what `PATCH` names its links by: `ids`, or `filter` (every link the list would
 * find with it), exactly one of the two.
 */
export class BulkLinksDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: MAX_ID },
    minItems: 1,
    maxItems: MAX_BULK_IDS,
    required: false,
    description:
      `The links, by id: 1 to ${MAX_BULK_IDS}, each one of the caller's (within its spaces), or nothing is done and ` +
      'a 422 names `ids`. An id sent twice counts once. Required unless `filter` is sent.',
    example: [5, 7],
  })
  @ValidateIf((body: BulkLinksDto) => !byFilter(body))
  @Transform(toIds)
  @IsDefined({ message: 'The ids field is required when filter is not present.' })
  @IsArray({ message: 'The ids field must be an array.' })
  @ValidateBy(
    {
      name: 'bulkIds',
      validator: {
        validate: (value) => !Array.isArray(value) || (value.length >= 1 && value.length <= MAX_BULK_IDS),
      },
    },
    {
      message: (args) =>
        Array.isArray(args.value) && args.value.length === 0
          ? 'The ids field must have at least 1 item.'
          : `The ids field must not have more than ${MAX_BULK_IDS} items.`,
    },
  )
  ids?: unknown[] | null;

  @ApiProperty({
    type: LinkFiltersDto,
    required: false,
    description:
      'Instead of `ids`: every link the list finds with these filters (as its parameters; archived links only with ' +
      '`archived` 1), however many pages, up to 10,000 links; a filter that finds more is a 422 on `filter`.',
  })
  @ValidateIf((body: BulkLinksDto) => body.filter !== undefined && body.filter !== null)
  @NestedObject(LinkFiltersDto, 'filter')
  // Checked first (decorators apply from the last up): a filter beside ids is refused whatever it holds.
  @ValidateBy(
    {
      name: 'idsOrFilter',
      validator: { validate: (_value, args) => byFilter(args?.object as BulkLinksDto) },
    },
    { message: 'The filter field is prohibited when ids is present.' },
  )
  filter?: LinkFiltersDto | null;
}

/** `PATCH /api/v1/links/bulk`: the links, and what changes in each of them. */
export class BulkUpdateLinksDto extends BulkLinksDto {
  @ApiProperty({ type: BulkLinkChangesDto, description: 'What changes in every link: at least one field.' })
  @Required()
  @NestedObject(BulkLinkChangesDto, 'changes')
  @ValidateBy(
    {
      name: 'someChange',
      validator: {
        validate: (value) => !isPlainObject(value) || CHANGES.some((field) => value[field] !== undefined),
      },
    },
    { message: `The changes field must name at least one of ${CHANGES.join(', ')}.` },
  )
  changes!: BulkLinkChangesDto;
}

/** The links a bulk request names: their ids, each once, in the order sent; or a filter that finds them. */
export type BulkLinks = { ids: number[] } | { filter: LinkFiltersDto };

/**
 * The links a validated body names: its ids, each checked and named `ids.3` when it is no id, without repeats; or
 * its filter.
 */
export function bulkLinks(body: BulkLinksDto): BulkLinks {
  if (byFilter(body)) return { filter: body.filter! };
  const errors: FieldErrors = {};
  const ids = body.ids ?? [];
  ids.forEach((id, index) => {
    const field = `ids.${index}`;
    if (typeof id !== 'number' || !Number.isInteger(id))
      errors[field] = [`The ${field} field must be an integer.`];
    else if (id < 1) errors[field] = [`The ${field} field must be at least 1.`];
    else if (id > MAX_ID) errors[field] = [`The ${field} field must not be greater than ${MAX_ID}.`];
  });
  if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
  return { ids: [...new Set(ids as number[])] };
}

/** The document's example bodies: ids of the caller's own links stand in for these. */
export const BULK_EXAMPLES = {
  update: { ids: [5, 7], changes: { archived: 1, tags_add: ['spring-sale'] } },
  remove: { ids: [5, 7] },
};
