import type { Link } from './link.entity';

/** What the status of a link depends on: its settings, and the clicks counted so far. */
export type StatusInput = Pick<
  Link,
  'disabled' | 'activePeriodStartAt' | 'activePeriodEndAt' | 'clicksLimit'
>;

export enum LinkStatus {
  Active = 1,
  Expired = 2,
  Disabled = 3,
}

/**
 * What a visit would do now: Disabled if disabled; else Expired outside the active period or once the clicks
 * limit is reached; else Active. The SQL twin of this rule is {@link linkStatusCondition}.
 */
export function linkStatus(link: StatusInput, clicks: number, now: Date = new Date()): LinkStatus {
  if (link.disabled) return LinkStatus.Disabled;
  if (link.activePeriodStartAt !== null && now < link.activePeriodStartAt) return LinkStatus.Expired;
  if (link.activePeriodEndAt !== null && now >= link.activePeriodEndAt) return LinkStatus.Expired;
  if (link.clicksLimit !== null && link.clicksLimit > 0 && clicks >= link.clicksLimit)
    return LinkStatus.Expired;
  return LinkStatus.Active;
}

const EXPIRED = `(
  (link.active_period_start_at IS NOT NULL AND now() < link.active_period_start_at)
  OR (link.active_period_end_at IS NOT NULL AND now() >= link.active_period_end_at)
  OR (link.clicks_limit IS NOT NULL AND link.clicks_limit > 0 AND counter.clicks >= link.clicks_limit)
)`;

/** The list filter for a status, over the aliases `link` and `counter` (its `link_counters` row). */
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
