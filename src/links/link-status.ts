import type { Link } from './link.entity';

export enum LinkStatus {
  Active = 1,
  Expired = 2,
  Disabled = 3,
}

/**
 * What a visit would do now: Disabled if disabled; else Expired outside the active period or once the clicks
 * limit is reached; else Active. The SQL twin of this rule is {@link linkStatusCondition}.
 */
export function linkStatus(link: Link, now: Date = new Date()): LinkStatus {
  if (link.disabled) return LinkStatus.Disabled;
  if (link.activePeriodStartAt !== null && now < link.activePeriodStartAt) return LinkStatus.Expired;
  if (link.activePeriodEndAt !== null && now >= link.activePeriodEndAt) return LinkStatus.Expired;
  if (link.clicksLimit !== null && link.clicksLimit > 0 && link.clicks >= link.clicksLimit)
    return LinkStatus.Expired;
  return LinkStatus.Active;
}

const EXPIRED = `(
  (link.active_period_start_at IS NOT NULL AND now() < link.active_period_start_at)
  OR (link.active_period_end_at IS NOT NULL AND now() >= link.active_period_end_at)
  OR (link.clicks_limit IS NOT NULL AND link.clicks_limit > 0 AND link.clicks >= link.clicks_limit)
)`;

/** The list filter for a status, over the alias `link`. */
export function linkStatusCondition(status: LinkStatus): string {
  switch (status) {
    case LinkStatus.Disabled:
      return 'link.disabled = true';
    case LinkStatus.Expired:
      return `link.disabled = false AND ${EXPIRED}`;
    case LinkStatus.Active:
      return `link.disabled = false AND NOT ${EXPIRED}`;
  }
}
