/*
 * A link's status, stated once in TypeScript ({@link linkStatus}) here and once in SQL beside it
 * (`link-status.repository.ts`): a change to one is a change to the other, and test/link-status.e2e-spec.ts runs both
 * over the same cases. The folder imports nothing else, so that `clicks/`, which `links/` itself depends on, can
 * state the rule too. The triggers of the migrations keep their own copy (a link's `clicks_limit` on its counter):
 * migrations are history, and are not edited.
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
 * limit is reached; else Active. Its SQL twin is `linkStatusSql` (`link-status.repository.ts`).
 */
export function linkStatus(link: StatusInput, clicks: number, now: Date = new Date()): LinkStatus {
  if (link.disabled) return LinkStatus.Disabled;
  if (link.activePeriodStartAt !== null && now < link.activePeriodStartAt) return LinkStatus.Expired;
  if (link.activePeriodEndAt !== null && now >= link.activePeriodEndAt) return LinkStatus.Expired;
  if (link.clicksLimit !== null && link.clicksLimit > 0 && clicks >= link.clicksLimit)
    return LinkStatus.Expired;
  return LinkStatus.Active;
}
