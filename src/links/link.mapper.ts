import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiFlag, ApiInteger, integerEnum } from '../common/openapi';
import { DomainSummary } from '../domains/domain.mapper';
import { PixelResponse } from '../pixels/pixel.mapper';
import { SpaceResponse } from '../spaces/space.mapper';
import { MAX_LINK_TAGS } from '../tags/tag.entity';
import { TARGETS_TYPES, TargetsType } from '../targeting/allowed-values';
import type { LinkCounter } from './link-counter.entity';
import { rotationSchedule } from '../targeting/rotation';
import { LinkPrivacy, type Link } from './link.entity';
import { visitFieldsOf } from './link-visit-fields';
import { CHECK_STATUS_NAMES, CheckStatus } from './health/link-check.entity';
import type { StoredHealth } from './health/link-health.repository';

/** `privacy` as the document names it, the same in requests and responses. */
export const LINK_PRIVACY = {
  values: [LinkPrivacy.Public, LinkPrivacy.Private, LinkPrivacy.Password],
  name: 'LinkPrivacy',
  valueNames: ['Public', 'Private', 'Password'],
  enumDescription: 'Who sees the stats page: 0 public, 1 private, 2 with the password.',
};

export const LINK_PRIVACY_SCHEMA = integerEnum(
  LINK_PRIVACY.values,
  LINK_PRIVACY.name,
  LINK_PRIVACY.valueNames,
  LINK_PRIVACY.enumDescription,
);

const UTM_DOC = "Added to the destination's query at the redirect.";

/** One target of a link; rotations have no key, as phpShort sends them. */
export class LinkTargetResponse {
  @ApiProperty({ type: 'string', required: false, description: 'Absent for rotations.' })
  key?: string;

  @ApiProperty({ type: 'string', format: 'uri' })
  value!: string;
  @ApiInteger({
    required: false,
    minimum: 1,
    maximum: 100,
    description: 'Rotations only: the share of the visits this destination gets against the others’ weights.',
  })
  weight?: number;
}

/** What the last check of a link's target found (contract §13). */
export class LinkHealthResponse {
  @ApiProperty({
    type: 'string',
    enum: CHECK_STATUS_NAMES,
    enumName: 'LinkHealthStatus',
    description:
      '`broken`: the target answered 404, 410 or 5xx, or nothing within 10 s, twice 10 s apart; `unknown`: not ' +
      'checked yet, or not checkable (an address the checks may not reach, a scheme other than http and https).',
  })
  status!: (typeof CHECK_STATUS_NAMES)[number];

  @ApiInteger({ nullable: true, description: "The last answer's status; null when none came." })
  http_status!: number | null;

  @ApiDateTime({ nullable: true })
  checked_at!: string | null;
}

/** The health of a link not checked yet. */
export const UNCHECKED: StoredHealth = { status: CheckStatus.Unknown, httpStatus: null, checkedAt: null };

/** The health of a link as it is answered. */
export function toHealthResponse(health: StoredHealth): LinkHealthResponse {
  return {
    status: CHECK_STATUS_NAMES[health.status],
    http_status: health.httpStatus,
    checked_at: isoDate(health.checkedAt),
  };
}

/** A link, as the API answers it, in the contract's field order. */
export class LinkResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'spring-sale' })
  alias!: string;

  @ApiProperty({ type: 'string', format: 'uri' })
  url!: string;

  @ApiProperty({ type: 'string', format: 'uri', example: 'https://sho.rt/spring-sale' })
  short_url!: string;

  @ApiProperty({ type: 'string', nullable: true })
  title!: string | null;

  @ApiProperty({ type: 'string', enum: [...TARGETS_TYPES], enumName: 'TargetsType', nullable: true })
  targets_type!: TargetsType | null;

  @ApiProperty({ type: [LinkTargetResponse], nullable: true })
  targets!: LinkTargetResponse[] | null;

  @ApiInteger({ nullable: true, description: 'The index of the rotation’s last destination.' })
  last_rotation!: number | null;

  @ApiFlag('1: visitors confirm a sensitive-content warning first.')
  sensitive_content!: 0 | 1;

  @ApiProperty(LINK_PRIVACY_SCHEMA)
  privacy!: LinkPrivacy;

  @ApiProperty({ type: 'boolean', description: 'Whether the stats page has a password.' })
  password!: boolean;

  @ApiProperty({ type: 'boolean', description: 'Whether visitors must enter a password.' })
  redirect_password!: boolean;

  @ApiDateTime({ nullable: true })
  active_period_start_at!: string | null;

  @ApiDateTime({ nullable: true })
  active_period_end_at!: string | null;

  @ApiInteger({ nullable: true, minimum: 0, description: '0 or null: no limit.' })
  clicks_limit!: number | null;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true })
  expiration_url!: string | null;

  @ApiInteger({ minimum: 0 })
  clicks!: number;

  @ApiFlag('1: the link redirects nobody.')
  disabled!: 0 | 1;

  @ApiProperty({ type: SpaceResponse, nullable: true })
  space!: SpaceResponse | null;

  @ApiProperty({ type: DomainSummary })
  domain!: DomainSummary;

  @ApiProperty({ type: [PixelResponse] })
  pixels!: PixelResponse[];

  @ApiDateTime({ nullable: true, description: 'The same as `active_period_end_at`.' })
  expires_at!: string | null;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    maxItems: MAX_LINK_TAGS,
    description: 'The names of its tags, as first written in the workspace, in the order given.',
  })
  tags!: string[];

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_source!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_medium!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_campaign!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_term!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_content!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Where visitors on iOS go, before any targeting.',
  })
  ios_url!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Where visitors on Android go, before any targeting.',
  })
  android_url!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: "The social preview's title." })
  og_title!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: "The social preview's description." })
  og_description!: string | null;

  @ApiProperty({ type: 'string', format: 'uri', nullable: true, description: "The social preview's image." })
  og_image_url!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  notes!: string | null;

  @ApiFlag('1: left out of lists (unless they ask for the archive); visitors are redirected as always.')
  archived!: 0 | 1;

  @ApiProperty({ type: LinkHealthResponse })
  health!: LinkHealthResponse;
}

export interface LinkRelations {
  counter: Pick<LinkCounter, 'clicks' | 'lastRotation'>;
  domain: DomainSummary;
  space: SpaceResponse | null;
  pixels: PixelResponse[];
  /** Its tags' names, in the order given. */
  tags: string[];
  health: StoredHealth;
}

/** The destination the rotation's last turn served: the turn itself where the rotation has no weights. */
function lastDestination(link: Link, lastTurn: number | null): number | null {
  if (lastTurn === null || link.targets === null || link.targetsType !== TargetsType.Rotations)
    return lastTurn;
  return rotationSchedule(link.targets)[lastTurn] ?? lastTurn;
}

/**
 * The response shape of a link, in the contract's field order. Secrets are reported only as whether one is set.
 */
export function toLinkResponse(link: Link, relations: LinkRelations): LinkResponse {
  const rotations = link.targetsType === TargetsType.Rotations;
  return {
    id: link.id,
    alias: link.alias,
    url: link.url,
    short_url: `${relations.domain.url}/${link.alias}`,
    title: link.title,
    targets_type: link.targetsType,
    targets:
      link.targets === null
        ? null
        : link.targets.map((target) =>
            rotations
              ? { value: target.value, weight: target.weight ?? 1 }
              : { key: target.key, value: target.value },
          ),
    last_rotation: lastDestination(link, relations.counter.lastRotation),
    sensitive_content: link.sensitiveContent ? 1 : 0,
    privacy: link.privacy,
    password: link.passwordHash !== null,
    redirect_password: link.redirectPasswordHash !== null,
    active_period_start_at: isoDate(link.activePeriodStartAt),
    active_period_end_at: isoDate(link.activePeriodEndAt),
    clicks_limit: link.clicksLimit,
    expiration_url: link.expirationUrl,
    clicks: relations.counter.clicks,
    disabled: link.disabled ? 1 : 0,
    space: relations.space,
    domain: relations.domain,
    pixels: relations.pixels,
    expires_at: isoDate(link.activePeriodEndAt),
    created_at: isoDate(link.createdAt),
    updated_at: isoDate(link.updatedAt),
    tags: relations.tags,
    ...visitFieldsOf(link),
    archived: link.archived ? 1 : 0,
    health: toHealthResponse(relations.health),
  };
}

/** What a bulk change answers: how many links it matched, each changed as asked (`PATCH /api/v1/links/bulk`). */
export class LinksUpdatedResponse {
  @ApiInteger({
    minimum: 0,
    example: 2,
    description: 'The links matched, every one now as asked, whether or not it was so already.',
  })
  updated!: number;
}

/** What a bulk delete answers (`DELETE /api/v1/links/bulk`). */
export class LinksDeletedResponse {
  @ApiInteger({ minimum: 0, example: 2, description: 'The links deleted.' })
  deleted!: number;
}
