import { LinkStatus } from './link-status';

/*
 * The rule of `linkStatus` (`link-status.ts`) in SQL: the fragments below, which every statement of the rule is
 * made of (the lists of links, the claim of clicks), over a `links` row aliased `link`, at the statement's `now()`.
 * Each condition is written in the form that the partial indexes of the lists state (see the link-lists
 * migration), so that the planner matches them.
 */

/** Disabled. */
export function disabledSql(link: string): string {
  return `${link}.disabled`;
}

/** Not disabled. */
export function enabledSql(link: string): string {
  return `NOT ${link}.disabled`;
}

/** Before its active period. */
export function notBegunSql(link: string): string {
  return `${link}.active_period_start_at > now()`;
}

/** At or after the end of its active period. */
export function endedSql(link: string): string {
  return `${link}.active_period_end_at <= now()`;
}

/** Its active period has begun, or it has none. */
export function begunSql(link: string): string {
  return `(${link}.active_period_start_at IS NULL OR ${link}.active_period_start_at <= now())`;
}

/** Inside its active period, or without one. */
export function withinPeriodSql(link: string): string {
  return `${begunSql(link)}
  AND (${link}.active_period_end_at IS NULL OR ${link}.active_period_end_at > now())`;
}

/** A clicks limit (`limit`, the SQL of a limit column) that counts: null and 0 are none. */
export function limitedSql(limit: string): string {
  return `${limit} > 0`;
}

/** At its clicks limit: `clicks` (SQL) counted of a limit `limit` (SQL) that counts. */
export function atClicksLimitSql(limit: string, clicks: string): string {
  return `${limitedSql(limit)} AND ${clicks} >= ${limit}`;
}

/** What may be visited now, its clicks limit aside: enabled, inside its active period. */
export function openSql(link: string): string {
  return `${enabledSql(link)} AND ${withinPeriodSql(link)}`;
}

/**
 * The rule as one SQL value, the number of its {@link LinkStatus}: the twin of `linkStatus`, with `clicks`
 * the SQL of the link's clicks counted so far.
 */
export function linkStatusSql(link: string, clicks: string): string {
  return `CASE WHEN ${disabledSql(link)} THEN ${LinkStatus.Disabled}
    WHEN NOT (${withinPeriodSql(link)}) THEN ${LinkStatus.Expired}
    WHEN ${atClicksLimitSql(`${link}.clicks_limit`, clicks)} THEN ${LinkStatus.Expired}
    ELSE ${LinkStatus.Active} END`;
}

/*
 * The rule as the lists filter by it, from the fragments above. A list reads the clicks of a link's counter
 * (`link_counters`) as the index of the links at their limit holds them: `listed_clicks`, beside the counter's copy
 * of the link's limit (see `catchUpListedClicks`).
 */

/** At its clicks limit, over a `link_counters` row aliased `counter`, as the index of the links at their limit. */
function listedAtLimit(counter: string): string {
  return atClicksLimitSql(`${counter}.clicks_limit`, `${counter}.listed_clicks`);
}

/** What to read of the expired links: `select` and `join` over the alias `link`, and more conditions. */
export interface ExpiredQuery {
  select: string;
  join?: string;
  conditions?: string[];
}

/**
 * An account's expired links, what `linkStatus` calls Expired, as three disjoint sets that indexes find
 * without reading the links that are not expired: the links whose period has not begun; whose period has ended
 * (after it began); and those inside their period at their clicks limit. `account` is the SQL of the account id.
 * The link's own limit is said outright in the third (though the counter's copy of it says as much): it lets the
 * index of limited links tell their periods.
 */
export function expiredLinks(account: string, { select, join = '', conditions = [] }: ExpiredQuery): string {
  const more = conditions.map((condition) => ` AND ${condition}`).join('');
  const enabled = `link.account_id = ${account} AND ${enabledSql('link')}`;
  return `SELECT ${select} FROM links link ${join}
     WHERE ${enabled} AND ${notBegunSql('link')}${more}
    UNION ALL
    SELECT ${select} FROM links link ${join}
     WHERE ${enabled} AND ${endedSql('link')}
       AND ${begunSql('link')}${more}
    UNION ALL
    SELECT ${select} FROM link_counters reached JOIN links link ON link.id = reached.link_id ${join}
     WHERE reached.account_id = ${account} AND ${listedAtLimit('reached')}
       AND ${enabled} AND ${limitedSql('link.clicks_limit')} AND ${withinPeriodSql('link')}${more}`;
}

/**
 * The list filter for a status over the alias `link`, for an account whose id is the SQL `account`: the rule of
 * `linkStatus` as a condition.
 */
export function linkStatusCondition(status: LinkStatus, account: string): string {
  switch (status) {
    case LinkStatus.Disabled:
      return disabledSql('link');
    case LinkStatus.Expired:
      return `link.id IN (${expiredLinks(account, { select: 'link.id' })})`;
    case LinkStatus.Active:
      return `${openSql('link')} AND NOT EXISTS (
        SELECT 1 FROM link_counters reached
         WHERE reached.link_id = link.id AND reached.account_id = ${account} AND ${listedAtLimit('reached')})`;
  }
}
