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

/** Inside its active period, or without one, over the alias `link`. */
const WITHIN_PERIOD = `(link.active_period_start_at IS NULL OR link.active_period_start_at <= now())
  AND (link.active_period_end_at IS NULL OR link.active_period_end_at > now())`;

/** True of every link at its limit: said outright, it lets the index of limited links tell their periods. */
const LIMITED = 'link.clicks_limit > 0';

/**
 * At its clicks limit, over a `link_counters` row aliased `alias` (which carries a copy of the link's limit), by
 * the listed copy of its clicks, as the index of the links at their limit holds it (see {@link catchUpListedClicks}).
 */
function atClicksLimit(alias: string): string {
  return `${alias}.clicks_limit > 0 AND ${alias}.listed_clicks >= ${alias}.clicks_limit`;
}

/** What to read of the expired links: `select` and `join` over the alias `link`, and more conditions. */
export interface ExpiredQuery {
  select: string;
  join?: string;
  conditions?: string[];
}

/**
 * An account's expired links, what {@link linkStatus} calls Expired, as three disjoint sets that indexes find
 * without reading the links that are not expired: the links whose period has not begun; whose period has ended
 * (after it began); and those inside their period at their clicks limit. `account` is the SQL of the account id.
 */
export function expiredLinks(account: string, { select, join = '', conditions = [] }: ExpiredQuery): string {
  const more = conditions.map((condition) => ` AND ${condition}`).join('');
  const enabled = `link.account_id = ${account} AND NOT link.disabled`;
  return `SELECT ${select} FROM links link ${join}
     WHERE ${enabled} AND link.active_period_start_at > now()${more}
    UNION ALL
    SELECT ${select} FROM links link ${join}
     WHERE ${enabled} AND link.active_period_end_at <= now()
       AND (link.active_period_start_at IS NULL OR link.active_period_start_at <= now())${more}
    UNION ALL
    SELECT ${select} FROM link_counters reached JOIN links link ON link.id = reached.link_id ${join}
     WHERE reached.account_id = ${account} AND ${atClicksLimit('reached')}
       AND ${enabled} AND ${LIMITED} AND ${WITHIN_PERIOD}${more}`;
}

/**
 * The list filter for a status over the alias `link`, for an account whose id is the SQL `account`. The SQL twin
 * of {@link linkStatus}.
 */
export function linkStatusCondition(status: LinkStatus, account: string): string {
  switch (status) {
    case LinkStatus.Disabled:
      return 'link.disabled';
    case LinkStatus.Expired:
      return `link.id IN (${expiredLinks(account, { select: 'link.id' })})`;
    case LinkStatus.Active:
      return `NOT link.disabled AND ${WITHIN_PERIOD} AND NOT EXISTS (
        SELECT 1 FROM link_counters reached
         WHERE reached.link_id = link.id AND reached.account_id = ${account} AND ${atClicksLimit('reached')})`;
  }
}
