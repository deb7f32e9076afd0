import { plainToInstance, Transform } from 'class-transformer';
import { IsArray, Matches, ValidateBy, ValidateNested } from 'class-validator';
import {
  FormBool,
  FormDateTime,
  FormEnum,
  FormIdList,
  FormInt,
  FormIntIn,
  FormSecret,
  FormString,
  FormUrl,
  Nullable,
  Optional,
  Required,
  MAX_ID,
} from '../../common/validation';
import { TARGETS_TYPES, type TargetsType } from '../../targeting/allowed-values';
import { LinkPrivacy } from '../link.entity';
import { isReservedAlias } from '../reserved-aliases';
import { TARGETS_TYPE_OF, TargetDto } from './target.dto';

export const MAX_TARGETS = 100;
export const MAX_PIXELS = 100;
export const MAX_CLICKS_LIMIT = 999_999_999;

/** Builds TargetDto instances that know the request's targets_type, for their key validator. */
function toTargets({ value, obj }: { value: unknown; obj: Record<string, unknown> }): unknown {
  if (value === undefined || value === null || value === '') return value === '' ? [] : value;
  const list: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'object'
      ? Object.values(value as Record<string, unknown>)
      : [value];
  return list.map((item) => {
    if (typeof item !== 'object' || item === null) return item;
    const target = plainToInstance(TargetDto, item);
    Object.defineProperty(target, TARGETS_TYPE_OF, { value: obj.targets_type, enumerable: false });
    return target;
  });
}

function Alias(): PropertyDecorator {
  return (target, key) => {
    FormString({ max: 255 })(target, key);
    Matches(/^[A-Za-z0-9_-]+$/, {
      message: 'The alias field must only contain letters, numbers, dashes and underscores.',
    })(target, key);
    ValidateBy(
      {
        name: 'notReserved',
        validator: { validate: (value) => typeof value === 'string' && !isReservedAlias(value) },
      },
      { message: 'The alias is reserved.' },
    )(target, key);
  };
}

function Targets(): PropertyDecorator {
  return (target, key) => {
    Transform(toTargets)(target, key);
    IsArray({ message: 'The targets field must be an array.' })(target, key);
    ValidateBy(
      {
        name: 'maxTargets',
        validator: { validate: (value) => Array.isArray(value) && value.length <= MAX_TARGETS },
      },
      { message: `The targets field must not have more than ${MAX_TARGETS} items.` },
    )(target, key);
    ValidateBy(
      {
        name: 'targetObjects',
        validator: {
          validate: (value) => Array.isArray(value) && value.every((item) => item instanceof TargetDto),
        },
      },
      { message: 'Each target must have a key and a value.' },
    )(target, key);
    ValidateNested({ each: true })(target, key);
  };
}

/**
 * The fields a link accepts, named as phpShort names them. Create and update share them; what differs
 * (required `url`, the domain) is in the subclasses.
 */
class LinkFieldsDto {
  /** ASCII letters, digits, `-` and `_`; unique within the domain; random when absent. */
  @Nullable()
  @Alias()
  alias?: string | null;

  /** Sets the title; when absent on create, the target page's `<title>` is fetched in the background. */
  @Nullable()
  @FormString({ max: 255 })
  title?: string | null;

  /** One of the account's spaces; empty for none. */
  @Nullable()
  @FormInt({ min: 0, max: MAX_ID })
  space_id?: number | null;

  /** The account's pixels; replaces the whole set. */
  @Optional()
  @FormIdList({ max: MAX_PIXELS })
  pixel_ids?: number[];

  /** Visitors must enter it before the redirect. */
  @Nullable()
  @FormSecret()
  redirect_password?: string | null;

  /** 1: visitors confirm a sensitive-content warning first. */
  @Optional()
  @Required()
  @FormBool()
  sensitive_content?: boolean;

  /** Who sees the stats page: 0 public, 1 private, 2 with `password`. */
  @Optional()
  @Required()
  @FormIntIn([LinkPrivacy.Public, LinkPrivacy.Private, LinkPrivacy.Password])
  privacy?: LinkPrivacy;

  /** The stats page password, for privacy 2. */
  @Nullable()
  @FormSecret()
  password?: string | null;

  /** `Y-m-d H:i` in UTC, or ISO 8601 with a zone. */
  @Nullable()
  @FormDateTime()
  active_period_start_at?: Date | null;

  @Nullable()
  @FormDateTime()
  active_period_end_at?: Date | null;

  /** 0 or empty: no limit. */
  @Nullable()
  @FormInt({ min: 0, max: MAX_CLICKS_LIMIT })
  clicks_limit?: number | null;

  /** Where visitors go once the link has expired. */
  @Nullable()
  @FormUrl()
  expiration_url?: string | null;

  @Nullable()
  @FormEnum(TARGETS_TYPES)
  targets_type?: TargetsType | null;

  @Nullable()
  @Targets()
  targets?: TargetDto[] | null;

  /** 1: the link redirects nobody. */
  @Optional()
  @Required()
  @FormBool()
  disabled?: boolean;
}

export class CreateLinkDto extends LinkFieldsDto {
  @Required()
  @FormUrl()
  url!: string;

  /** One of the account's domains or a system domain; the default domain when absent. */
  @Nullable()
  @FormInt({ min: 1, max: MAX_ID })
  domain_id?: number | null;

  /** The same as `domain_id`, as phpShort's own example sends it. */
  @Nullable()
  @FormInt({ min: 1, max: MAX_ID })
  domain?: number | null;
}

/** PUT and PATCH alike: absent fields stay; an empty value clears a nullable field; the domain never changes. */
export class UpdateLinkDto extends LinkFieldsDto {
  @Optional()
  @Required()
  @FormUrl()
  url?: string;
}

export const MAX_BULK_LINKS = 1000;

/** Builds a CreateLinkDto of each item (targets included, as a single create does), keeping anything else as is. */
function toLinks({ value }: { value: unknown }): unknown {
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? Object.values(value as Record<string, unknown>)
      : value;
  if (!Array.isArray(list)) return list;
  return list.map((item: unknown) =>
    typeof item === 'object' && item !== null ? plainToInstance(CreateLinkDto, item) : item,
  );
}

/** `POST /api/v1/links/bulk`: up to 1,000 links, each as a create takes it. */
export class BulkCreateLinksDto {
  @Required()
  @Transform(toLinks)
  @IsArray({ message: 'The links field must be an array.' })
  @ValidateBy(
    {
      name: 'bulkSize',
      validator: {
        // Not a list at all is IsArray's to say.
        validate: (value) => !Array.isArray(value) || (value.length >= 1 && value.length <= MAX_BULK_LINKS),
      },
    },
    { message: `The links field must have between 1 and ${MAX_BULK_LINKS} items.` },
  )
  @ValidateBy(
    {
      name: 'linkObjects',
      validator: {
        validate: (value) => !Array.isArray(value) || value.every((item) => item instanceof CreateLinkDto),
      },
    },
    { message: 'Each link must be an object of link fields.' },
  )
  @ValidateNested({ each: true })
  links!: CreateLinkDto[];
}
