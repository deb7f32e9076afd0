import type { Link } from '../../api/types';

export type LinkStatus = 'active' | 'expired' | 'disabled';

/**
 * What a visit would do now, as the list's status filter counts it (the contract's Status): disabled first, then
 * expired outside the active period or past the clicks limit, else active. Shown beside each link; the filter
 * itself is applied by the API.
 */
export function linkStatus(link: Link, now: number): LinkStatus {
  if (link.disabled === 1) return 'disabled';
  const start = link.active_period_start_at === null ? null : Date.parse(link.active_period_start_at);
  const end = link.active_period_end_at === null ? null : Date.parse(link.active_period_end_at);
  if ((start !== null && now < start) || (end !== null && now > end)) return 'expired';
  if (link.clicks_limit !== null && link.clicks_limit > 0 && link.clicks >= link.clicks_limit)
    return 'expired';
  return 'active';
}
