import { linkStatus, LinkStatus } from '../links/status/link-status';
import type { Target } from '../links/link.entity';
import { TargetsType } from '../targeting/allowed-values';
import { matchTarget } from '../targeting/matcher';
import type { VisitorProfile } from '../targeting/visitor';

/**
 * What a visit is, decided once for both ways a visit is answered: the Nest routes, and the lean handler in front
 * of them, which answers only the redirects it can answer completely and hands every other case to the routes.
 */

/**
 * What the first request of a visit gets, in the contract's order: not found, expired, the password form, the
 * consent page, or the visit itself, counted (unless a bot) and sent on.
 */
export type VisitStep = 'not-found' | 'expired' | 'password' | 'consent' | 'visit';

export interface VisitRules {
  disabled: boolean;
  activePeriodStartAt: Date | null;
  activePeriodEndAt: Date | null;
  clicksLimit: number | null;
  hasRedirectPassword: boolean;
  sensitiveContent: boolean;
}

/**
 * The step for a link. `clicks`: its clicks counted so far, when they were read; null leaves the limit to the
 * count itself, which never grants a click past it.
 */
export function firstStep(link: VisitRules, clicks: number | null, now: Date = new Date()): VisitStep {
  // No clicks read: none can have reached a limit, so the status leaves the limit to the count.
  const status = linkStatus(link, clicks ?? 0, now);
  if (status === LinkStatus.Disabled) return 'not-found';
  if (status === LinkStatus.Expired) return 'expired';
  if (link.hasRedirectPassword) return 'password';
  if (link.sensitiveContent) return 'consent';
  return 'visit';
}

/** Crawlers, link previews and HEAD requests reach the destination but are not visits. */
export function isCounted(visitor: VisitorProfile, method: string | undefined): boolean {
  return !visitor.bot && method !== 'HEAD';
}

export interface Destinations {
  url: string;
  targetsType: TargetsType | null;
  targets: Target[] | null;
  /** The destination each turn of a weighted rotation serves (see `rotationSchedule`); absent: turn `i`, target `i`. */
  turns?: readonly string[];
}

/** Whether visits to the link take turns, and so must be counted in order. */
export function rotates(link: Destinations): boolean {
  return link.targetsType === TargetsType.Rotations && (link.targets?.length ?? 0) > 0;
}

/**
 * Where the visitor goes: the destination of the rotation's turn it was served, the first matching target, or the
 * link's url.
 */
export function destinationOf(link: Destinations, visitor: VisitorProfile, rotation: number | null): string {
  if (link.targetsType === TargetsType.Rotations) {
    if (rotation === null) return link.url;
    return link.turns?.[rotation] ?? link.targets?.[rotation]?.value ?? link.url;
  }
  return matchTarget(link.targetsType, link.targets, visitor) ?? link.url;
}

/** A link's app links: where visitors on iOS and on Android go. */
export interface AppLinks {
  iosUrl: string | null;
  androidUrl: string | null;
}

/** The app link of the visitor's system, which comes before any targeting; null for none. */
export function appLinkOf(link: AppLinks, visitor: Pick<VisitorProfile, 'os'>): string | null {
  if (visitor.os === 'iOS') return link.iosUrl;
  if (visitor.os === 'Android') return link.androidUrl;
  return null;
}
