import { isoDate } from '../common/dates';
import type { DomainSummary } from '../domains/domain.mapper';
import type { PixelResponse } from '../pixels/pixel.mapper';
import type { SpaceResponse } from '../spaces/space.mapper';
import { TargetsType } from '../targeting/allowed-values';
import type { LinkCounter } from './link-counter.entity';
import type { Link } from './link.entity';

export interface LinkResponse {
  id: number;
  alias: string;
  url: string;
  short_url: string;
  title: string | null;
  targets_type: string | null;
  /** `[{"key", "value"}]`; rotations have no key: `[{"value"}]`, as phpShort sends them. */
  targets: ({ key: string; value: string } | { value: string })[] | null;
  last_rotation: number | null;
  sensitive_content: 0 | 1;
  privacy: number;
  password: boolean;
  redirect_password: boolean;
  active_period_start_at: string | null;
  active_period_end_at: string | null;
  clicks_limit: number | null;
  expiration_url: string | null;
  clicks: number;
  disabled: 0 | 1;
  space: SpaceResponse | null;
  domain: DomainSummary;
  pixels: PixelResponse[];
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LinkRelations {
  counter: Pick<LinkCounter, 'clicks' | 'lastRotation'>;
  domain: DomainSummary;
  space: SpaceResponse | null;
  pixels: PixelResponse[];
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
            rotations ? { value: target.value } : { key: target.key, value: target.value },
          ),
    last_rotation: relations.counter.lastRotation,
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
  };
}
