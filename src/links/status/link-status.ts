/*
 * A link's status, stated once in TypeScript ({@link linkStatus}) and once in SQL (the fragments below, which every
 * statement of the rule is made of, and {@link linkStatusSql}, the rule as one value), side by side: a change to
 * one is a change to the other, and test/link-status.e2e-spec.ts runs both over the same cases. This file imports
 * nothing, so that every statement of the rule can be made of it: the lists of links, and the claim of clicks in
 * `clicks/`, which `links/` itself depends on. The triggers of the migrations keep their own copy (a link's
 * `clicks_limit` on its counter): migrations are history, and are not edited.
 */

/** What the status of a link depends on: its settings, and the clicks counted so far. */
export interface StatusInput {
  disabled: boolean;
  activePeriodStartAt: Date | null;
  activePeriodEndAt: Date | null;
  /** Null or 0: no limit. */
  clicksLimit: number | null;
}

export enum LinkStatus {
  Active = 1,
  Expired = 2,
  Disabled = 3,
}

/**
 * What a visit would do now: Disabled if disabled; else Expired outside the active period or once the clicks
 * limit is reached; else Active. Its SQL twin is {@link linkStatusSql}.
 */
export function linkStatus(link: StatusInput, clicks: number, now: Date = new Date()): LinkStatus {
  if (link.disabled) return LinkStatus.Disabled;
  if (link.activePeriodStartAt !== null && now < link.activePeriodStartAt) return LinkStatus.Expired;
  if (link.activePeriodEndAt !== null && now >= link.activePeriodEndAt) return LinkStatus.Expired;
  if (link.clicksLimit !== null && link.clicksLimit > 0 && clicks >= link.clicksLimit)
    return LinkStatus.Expired;
  return LinkStatus.Active;
}

/*
 * The same rule in SQL, over a `links` row aliased `link`, at the statement's `now()`. Each condition is written
 * in the form that the partial indexes of the lists state (see the link-lists migration), so that the planner
 * matches them.
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
 * The rule as one SQL value, the number of its {@link LinkStatus}: the twin of {@link linkStatus}, with `clicks`
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
 * An account's expired links, what {@link linkStatus} calls Expired, as three disjoint sets that indexes find
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
 * {@link linkStatus} as a condition.
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
