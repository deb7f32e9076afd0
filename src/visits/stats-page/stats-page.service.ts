import { Injectable } from '@nestjs/common';
import { AccountsService } from '../../auth/accounts.service';
import { bearerToken } from '../../auth/api-key';
import { reachesSpace } from '../../auth/owner';
import { clientKey } from '../../common/client-address';
import {
  OwnerOnlyException,
  PasswordRequiredException,
  ResourceNotFoundException,
  TooManyAttemptsException,
  type VisitorContext,
} from '../../common/exceptions';
import { verifySecret } from '../../common/secret-hash';
import { shortUrl } from '../../domains/domain.mapper';
import { DomainsService } from '../../domains/domains.service';
import { LinkPrivacy, type Link } from '../../links/link.entity';
import { LinksService } from '../../links/links.service';
import { ClickSeries } from '../../stats/click-series';
import { StatsService, type StatsRange, type StatsRow } from '../../stats/stats.service';
import { isAlias } from '../../links/alias';
import type { ResolvedLink } from '../../links/resolved-link';
import { AttemptLimiter } from '../limits/attempt-limiter';
import { PAGE_DIMENSIONS, type PageDimension } from './display-names';
import {
  cookieValues,
  issueStatsAccess,
  STATS_ACCESS_COOKIE,
  statsAccessCookie,
  verifyStatsAccess,
} from './stats-access';
import { DEFAULT_STATS_RANGE, STATS_RANGES, type StatsPageData, type StatsRangeChoice } from './stats-view';

const DAY_MS = 86_400_000;
/** Values of each dimension on the page. */
const TOP = 10;
/** Countries on the map: more than there are, so every one with clicks is drawn. */
const MAP_COUNTRIES = 300;
/** "All time" reaches back ten years at most, as far as a per-day series of the stats API goes. */
const MAX_DAYS = 3660;

/** The stats of a link as JSON (`Accept: application/json`). */
export interface PublicStats {
  alias: string;
  from: string;
  to: string;
  clicks: number;
  days: StatsRow[];
  dimensions: Record<PageDimension, StatsRow[]>;
}

/** What the stats page reads of a visitor's request. */
export interface StatsVisit {
  /** The Host header, which picks the domain. */
  host: string | undefined;
  /** The Authorization header: the owner's API key opens a private or password link's stats. */
  authorization: string | undefined;
  /** The Cookie header: the signed access of a stats password given lately. */
  cookie: string | undefined;
  /** The client's address, by which password attempts are limited. */
  ip: string | undefined;
  /** Whether the request came over HTTPS: the access cookie is then Secure. */
  secure: boolean;
  /** The period asked for, when it is one the page offers. */
  range: StatsRangeChoice | null;
}

/** What a stats password posted leads to. */
export type PasswordOutcome =
  /** The link has no stats password: the page is as a GET shows it. */
  | { unlocked: false }
  /** The right password: the link, and the cookie that opens its page in that browser for a day. */
  | { unlocked: true; found: ResolvedLink; cookie: string };

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The `range` parameter, when it names one of the page's periods. */
export function chosenRange(value: unknown): StatsRangeChoice | null {
  return typeof value === 'string' && (STATS_RANGES as readonly string[]).includes(value)
    ? (value as StatsRangeChoice)
    : null;
}

/** The address of a link's stats page, in the period chosen. */
export function statsPath(alias: string, range: StatsRangeChoice | null): string {
  return `/${alias}/stats${range === null ? '' : `?range=${range}`}`;
}

/** The days of a period, today included; "all" from the day the link was made. */
export function periodOf(choice: StatsRangeChoice, createdAt: Date, last: Date = today()): StatsRange {
  const created = Date.UTC(createdAt.getUTCFullYear(), createdAt.getUTCMonth(), createdAt.getUTCDate());
  const days = choice === 'all' ? Math.round((last.getTime() - created) / DAY_MS) + 1 : Number(choice);
  const count = Math.min(MAX_DAYS, Math.max(1, days));
  return { from: new Date(last.getTime() - (count - 1) * DAY_MS), to: last };
}

/**
 * The public stats page of a link, `GET /{alias}/stats`: open for privacy 0, the owner's API key for 1, the
 * stats password for 2 (`POST /{alias}/stats`, which unlocks the page in that browser for a day with a signed
 * cookie). It decides who sees what and gathers the numbers; a refusal is an exception that says where the visitor
 * met it, and the error filter answers it (the page, or JSON).
 */
@Injectable()
export class StatsPageService {
  constructor(
    private readonly stats: StatsService,
    private readonly series: ClickSeries,
    private readonly accounts: AccountsService,
    private readonly limiter: AttemptLimiter,
    private readonly links: LinksService,
    private readonly domains: DomainsService,
  ) {}

  /** The link whose stats the visitor may see; else a 404, 403 (private) or 401 (password) refusal. */
  async open(visit: StatsVisit, alias: string): Promise<ResolvedLink> {
    const found = await this.find(visit, alias);
    const { link } = found;
    if (link.privacy === LinkPrivacy.Private && !(await this.isOwner(visit, link))) {
      throw new OwnerOnlyException().seenBy(this.context(found, alias, visit));
    }
    if (
      link.privacy === LinkPrivacy.Password &&
      !this.hasAccess(visit, link) &&
      !(await this.isOwner(visit, link))
    ) {
      throw new PasswordRequiredException(false).seenBy(this.context(found, alias, visit));
    }
    return found;
  }

  /** `POST /{alias}/stats`: the stats password, limited per visitor and link. */
  async submitPassword(visit: StatsVisit, alias: string, password: unknown): Promise<PasswordOutcome> {
    const found = await this.find(visit, alias);
    const { link } = found;
    if (link.privacy !== LinkPrivacy.Password || link.passwordHash === null) return { unlocked: false };
    const wait = await this.limiter.attempt(`stats|${clientKey(visit.ip)}|${link.id}`);
    if (wait > 0) throw new TooManyAttemptsException(wait).seenBy(this.context(found, alias, visit));
    if (typeof password !== 'string' || !(await verifySecret(password, link.passwordHash))) {
      throw new PasswordRequiredException(true).seenBy(this.context(found, alias, visit));
    }
    link.passwordHash = await this.links.upgradeSecretHash(
      link.id,
      'passwordHash',
      link.passwordHash,
      password,
    );
    const secure = visit.secure || this.domains.scheme === 'https:';
    const cookie = statsAccessCookie(issueStatsAccess(link.id, link.passwordHash), `/${alias}/stats`, secure);
    return { unlocked: true, found, cookie };
  }

  /** The numbers of the JSON answer: every day of the period, and the top values of each dimension. */
  async publicStats(found: ResolvedLink, choice: StatsRangeChoice | null): Promise<PublicStats> {
    const { link } = found;
    const range = periodOf(choice ?? DEFAULT_STATS_RANGE, link.createdAt);
    const dayCount = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS) + 1;
    const [days, clicks, lists] = await Promise.all([
      this.stats.pageReport(link.id, 'clicks', range, { page: 1, perPage: dayCount }),
      this.stats.total(link.id, range),
      this.dimensions(link, range),
    ]);
    return {
      alias: link.alias,
      from: day(range.from),
      to: day(range.to),
      clicks,
      days: days.items,
      dimensions: Object.fromEntries(
        PAGE_DIMENSIONS.map((name, index) => [name, lists[index]]),
      ) as PublicStats['dimensions'],
    };
  }

  /** The numbers of the page: the clicks over time in buckets that fit the period, and each dimension's top. */
  async dashboard(found: ResolvedLink, choice: StatsRangeChoice | null): Promise<StatsPageData> {
    const { link, domain } = found;
    const range = periodOf(choice ?? DEFAULT_STATS_RANGE, link.createdAt);
    const [series, total, lists, countries] = await Promise.all([
      this.series.of(link.id, range),
      this.stats.total(link.id, range),
      this.dimensions(link, range),
      this.stats.pageReport(link.id, 'country', range, { page: 1, perPage: MAP_COUNTRIES }),
    ]);
    return {
      name: link.title ?? link.alias,
      alias: link.alias,
      shortUrl: shortUrl(domain, this.domains.scheme, link.alias),
      range: choice ?? DEFAULT_STATS_RANGE,
      from: range.from,
      to: range.to,
      total,
      series,
      dimensions: PAGE_DIMENSIONS.map((name, index) => ({ name, rows: lists[index] })),
      countries: countries.items,
    };
  }

  private async dimensions(link: Link, range: StatsRange): Promise<StatsRow[][]> {
    const top = { page: 1, perPage: TOP };
    const lists = await Promise.all(
      PAGE_DIMENSIONS.map((name) => this.stats.pageReport(link.id, name, range, top)),
    );
    return lists.map((list) => list.items);
  }

  /** The link; a disabled one is gone for visitors, its stats page included, as its redirect is. */
  private async find(visit: StatsVisit, alias: string): Promise<ResolvedLink> {
    const domain = await this.domains.forHost(visit.host);
    const found = isAlias(alias) ? await this.links.findByAlias(domain.id, alias) : null;
    if (found === null || found.link.disabled) {
      throw new ResourceNotFoundException().seenBy({ domain: domain.name });
    }
    return { domain, ...found };
  }

  /** Where a refusal of this page was met: the link's domain, and the password form's address. */
  private context(found: ResolvedLink, alias: string, visit: StatsVisit): VisitorContext {
    return { domain: found.domain.name, action: statsPath(alias, visit.range) };
  }

  private async isOwner(visit: StatsVisit, link: Link): Promise<boolean> {
    const key = bearerToken(visit.authorization);
    if (key === null) return false;
    const caller = await this.accounts.findByApiKey(key);
    return (
      caller !== null &&
      caller.owner.accountId === link.accountId &&
      reachesSpace(caller.owner, link.spaceId) &&
      caller.granted.has('stats.read')
    );
  }

  /** Whether this browser gave the stats password lately (the signed cookie). */
  private hasAccess(visit: StatsVisit, link: Link): boolean {
    if (link.passwordHash === null) return false;
    const hash = link.passwordHash;
    return cookieValues(visit.cookie, STATS_ACCESS_COOKIE).some((value) =>
      verifyStatsAccess(value, link.id, hash),
    );
  }
}
