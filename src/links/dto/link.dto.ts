import { ALIAS_MAX_LENGTH, ALIAS_PATTERN } from '../alias';
import { ApiProperty } from '@nestjs/swagger';
import { plainToInstance, Transform } from 'class-transformer';
import { IsArray, Matches, ValidateBy, ValidateNested } from 'class-validator';
import {
  FormAppUrl,
  FormBool,
  FormDateTime,
  FormEnum,
  FormId,
  FormIdList,
  FormInt,
  FormIntIn,
  FormNameList,
  FormSecret,
  FormString,
  FormUrl,
  Nullable,
  Optional,
  OptionalNotNull,
  Required,
} from '../../common/validation';
import { TARGETS_TYPES, type TargetsType } from '../../targeting/allowed-values';
import { MAX_LINK_TAGS, MAX_TAG_NAME } from '../../tags/tag.entity';
import { LinkPrivacy } from '../link.entity';
import { LINK_PRIVACY } from '../link.mapper';
import { isReservedAlias } from '../reserved-aliases';
import { TARGETS_TYPE_OF, TargetDto } from './target.dto';

export const MAX_TARGETS = 100;

const UTM_DOC =
  "Added to the destination's query at the redirect, replacing a parameter of the same name in the destination " +
  "and in the visitor's query.";
const PREVIEW_DOC =
  'When one of `og_title`, `og_description` and `og_image_url` is set, the crawlers of social networks and chat ' +
  'apps that open the short link get a page with these Open Graph and Twitter card tags; people are redirected.';
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
    // No example: an alias is unique within its domain, so a request that sent a fixed one would work only once.
    FormString({
      max: ALIAS_MAX_LENGTH,
      description: 'ASCII letters, digits, `-` and `_`; unique within the domain; random when absent.',
    })(target, key);
    ApiProperty({ pattern: ALIAS_PATTERN.source })(target, key);
    Matches(ALIAS_PATTERN, {
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
    ApiProperty({
      type: [TargetDto],
      maxItems: MAX_TARGETS,
      description:
        'Visitors matching a target go to its value, the first match winning; the key depends on `targets_type` ' +
        '(see `TargetDto.key`). In a form: `targets[0][key]=US&targets[0][value]=https://a.example`.',
    })(target, key);
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

  @Nullable()
  @FormString({
    max: 255,
    description:
      "Sets the title; when absent on create, the target page's `<title>` is fetched in the background.",
  })
  title?: string | null;

  @Nullable()
  @FormId({ orNone: true, description: "One of the account's spaces; empty for none." })
  space_id?: number | null;

  @Optional()
  @FormIdList({
    max: MAX_PIXELS,
    description:
      "The account's pixels; replaces the whole set. In a form, `pixel_ids[]=` sends an empty list.",
  })
  pixel_ids?: number[];

  @Nullable()
  @FormSecret({ description: 'Visitors must enter it before the redirect.' })
  redirect_password?: string | null;

  @OptionalNotNull()
  @FormBool({ description: '1: visitors confirm a sensitive-content warning first.' })
  sensitive_content?: boolean;

  @OptionalNotNull()
  @FormIntIn(LINK_PRIVACY.values, LINK_PRIVACY.name, LINK_PRIVACY)
  privacy?: LinkPrivacy;

  @Nullable()
  @FormSecret({ description: 'The stats page password, for privacy 2.' })
  password?: string | null;

  @Nullable()
  @FormDateTime({
    description:
      '`Y-m-d H:i` in UTC, or ISO 8601 with a zone. Sent with `active_period_end_at`, before it; one without the ' +
      'other is a 422.',
    // A period of its own in the examples, before the end's: sent together, they make one a link may have.
    example: '2030-03-20 00:00',
  })
  active_period_start_at?: Date | null;

  @Nullable()
  @FormDateTime({
    description:
      '`Y-m-d H:i` in UTC, or an ISO 8601 date-time with a zone. Sent with `active_period_start_at`, after it; ' +
      'one without the other is a 422.',
    example: '2030-06-20 23:59',
  })
  active_period_end_at?: Date | null;

  @Nullable()
  @FormInt({ min: 0, max: MAX_CLICKS_LIMIT, description: '0 or empty: no limit.' })
  clicks_limit?: number | null;

  @Nullable()
  @FormUrl({ description: 'Where visitors go once the link has expired.' })
  expiration_url?: string | null;

  @Nullable()
  @FormEnum(TARGETS_TYPES, 'TargetsType')
  targets_type?: TargetsType | null;

  @Nullable()
  @Targets()
  targets?: TargetDto[] | null;

  @OptionalNotNull()
  @FormBool({ description: '1: the link redirects nobody.' })
  disabled?: boolean;

  @Nullable()
  @FormString({ max: 255, description: UTM_DOC, example: 'newsletter' })
  utm_source?: string | null;

  @Nullable()
  @FormString({ max: 255, description: UTM_DOC, example: 'email' })
  utm_medium?: string | null;

  @Nullable()
  @FormString({ max: 255, description: UTM_DOC, example: 'spring-sale' })
  utm_campaign?: string | null;

  @Nullable()
  @FormString({ max: 255, description: UTM_DOC })
  utm_term?: string | null;

  @Nullable()
  @FormString({ max: 255, description: UTM_DOC })
  utm_content?: string | null;

  @Nullable()
  @FormAppUrl({ description: 'Where visitors on iOS go, before any targeting.' })
  ios_url?: string | null;

  @Nullable()
  @FormAppUrl({ description: 'Where visitors on Android go, before any targeting.' })
  android_url?: string | null;

  @Nullable()
  @FormString({ max: 200, description: `The social preview's title. ${PREVIEW_DOC}` })
  og_title?: string | null;

  @Nullable()
  @FormString({ max: 500, description: `The social preview's description. ${PREVIEW_DOC}` })
  og_description?: string | null;

  @Nullable()
  @FormUrl({ schemes: 'https', description: `The social preview's image. ${PREVIEW_DOC}` })
  og_image_url?: string | null;

  @Nullable()
  @FormString({ max: 2000, description: 'For the people who manage the link; never shown to visitors.' })
  notes?: string | null;

  @Optional()
  @FormNameList({
    maxItems: MAX_LINK_TAGS,
    max: MAX_TAG_NAME,
    description:
      "The workspace's tags by name, regardless of case; a name it has no tag of makes one. Replaces the whole " +
      'set; in a form, `tags[]=` sends an empty list.',
  })
  tags?: string[];

  @OptionalNotNull()
  @FormBool({
    description: '1: the link leaves the lists (unless they ask for the archive) and still redirects.',
  })
  archived?: boolean;
}

export class CreateLinkDto extends LinkFieldsDto {
  @Required()
  @FormUrl()
  url!: string;

  @Nullable()
  @FormId({ description: "One of the account's domains or a system domain; the default domain when absent." })
  domain_id?: number | null;

  @Nullable()
  @FormId({ description: "The same as `domain_id`, as phpShort's own example sends it." })
  domain?: number | null;
}

/** PUT and PATCH alike: absent fields stay; an empty value clears a nullable field; the domain never changes. */
export class UpdateLinkDto extends LinkFieldsDto {
  @OptionalNotNull()
  @FormUrl()
  url?: string;
}

/** The document's example bodies: no alias, which a second request could not take again. */
export const LINK_EXAMPLES = {
  create: {
    url: 'https://example.com/spring-sale',
    title: 'Spring sale',
    active_period_start_at: '2030-03-20 00:00',
    active_period_end_at: '2030-06-20 23:59',
    expiration_url: 'https://example.com/',
  },
  update: { url: 'https://example.com/summer-sale', title: 'Summer sale' },
  bulk: {
    links: [
      { url: 'https://example.com/spring-sale', title: 'Spring sale' },
      { url: 'https://example.com/summer-sale', title: 'Summer sale', clicks_limit: 1000 },
    ],
  },
};

export const MAX_BULK_LINKS = 1000;

/** The items as a list (a form body sends an object of indexes), each item as sent: `validateEach` converts them. */
function toLinks({ value }: { value: unknown }): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.values(value as Record<string, unknown>)
    : value;
}

/**
 * `POST /api/v1/links/bulk`: up to 1,000 links, each as a create takes it. The list is checked here; its links are
 * validated one by one by `validateEach`, which lets other requests through meanwhile.
 */
export class BulkCreateLinksDto {
  @ApiProperty({
    type: [CreateLinkDto],
    minItems: 1,
    maxItems: MAX_BULK_LINKS,
    description: 'Each link as a create takes it. In a form: `links[0][url]=https://a.example`.',
  })
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
        validate: (value) =>
          !Array.isArray(value) ||
          value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)),
      },
    },
    { message: 'Each link must be an object of link fields.' },
  )
  links!: object[];
}
