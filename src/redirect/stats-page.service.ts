import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientKey } from '../common/client-address';
import { AccountsService } from '../auth/accounts.service';
import { bearerToken } from '../auth/api-key';
import { dataEnvelope } from '../common/envelope';
import { verifySecret } from '../common/secret-hash';
import { shortUrl } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import { LinkPrivacy, type Link } from '../links/link.entity';
import { LinksService } from '../links/links.service';
import { ClickSeries } from '../stats/click-series';
import { StatsService, type StatsRange, type StatsRow } from '../stats/stats.service';
import { AttemptLimiter } from './attempt-limiter';
import { STATS_DIMENSIONS, type StatsDimension } from './display-names';
import { Pages } from './pages';
import {
  issueStatsAccess,
  STATS_ACCESS_COOKIE,
  statsAccessCookie,
  cookieValues,
  verifyStatsAccess,
} from './stats-access';
import { DEFAULT_STATS_RANGE, STATS_RANGES, type StatsRangeChoice } from './stats-view';
import type { Translator } from './translator';
import { views } from './views';
import { VisitsService, type ResolvedLink } from './visits.service';

const DAY_MS = 86_400_000;
/** Values of each dimension on the page. */
const TOP = 10;
/** "All time" reaches back ten years at most, as far as a per-day series of the stats API goes. */
const MAX_DAYS = 3660;

interface PublicStats {
  alias: string;
  from: string;
  to: string;
  clicks: number;
  days: StatsRow[];
  dimensions: Record<StatsDimension, StatsRow[]>;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The `range` parameter, when it names one of the page's periods. */
function chosenRange(request: Request): StatsRangeChoice | null {
  const value = request.query.range;
  return typeof value === 'string' && (STATS_RANGES as readonly string[]).includes(value)
    ? (value as StatsRangeChoice)
    : null;
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
 * cookie). HTML, or JSON for `Accept: application/json`.
 */
@Injectable()
export class StatsPageService {
  constructor(
    private readonly visits: VisitsService,
    private readonly stats: StatsService,
    private readonly series: ClickSeries,
    private readonly accounts: AccountsService,
    private readonly limiter: AttemptLimiter,
    private readonly pages: Pages,
    private readonly links: LinksService,
    private readonly domains: DomainsService,
  ) {}

  async show(request: Request, response: Response, alias: string): Promise<void> {
    const found = await this.find(request, response, alias);
    if (found === null) return;
    const { link } = found;
    if (link.privacy === LinkPrivacy.Private && !(await this.isOwner(request, link))) {
      this.forbidden(request, response, found);
      return;
    }
    if (
      link.privacy === LinkPrivacy.Password &&
      !this.hasAccess(request, link) &&
      !(await this.isOwner(request, link))
    ) {
      this.passwordPage(request, response, found, alias, 200);
      return;
    }
    await this.render(request, response, found);
  }

  async submitPassword(request: Request, response: Response, alias: string): Promise<void> {
    const found = await this.find(request, response, alias);
    if (found === null) return;
    const { link } = found;
    if (link.privacy !== LinkPrivacy.Password || link.passwordHash === null) {
      if (this.wantsJson(request)) await this.show(request, response, alias);
      else this.seeStats(response, alias, request);
      return;
    }
    const key = `stats|${clientKey(request.ip)}|${link.id}`;
    const wait = await this.limiter.attempt(key);
    if (wait > 0) {
      if (this.wantsJson(request)) {
        response.set('Retry-After', String(Math.ceil(wait / 1000)));
        response.status(429).json({ message: 'Too Many Attempts.', status: 429 });
      } else {
        this.pages.sendTooManyAttempts(response, wait);
      }
      return;
    }
    const password = (request.body as Record<string, unknown> | undefined)?.password;
    if (typeof password !== 'string' || !(await verifySecret(password, link.passwordHash))) {
      this.passwordPage(request, response, found, alias, 403);
      return;
    }
    link.passwordHash = await this.links.upgradeSecretHash(
      link.id,
      'passwordHash',
      link.passwordHash,
      password,
    );
    if (this.wantsJson(request)) {
      await this.render(request, response, found);
      return;
    }
    // The page is then a plain GET: it can be reloaded and bookmarked while the cookie lasts.
    const secure = request.secure || this.domains.scheme === 'https:';
    response.append(
      'Set-Cookie',
      statsAccessCookie(issueStatsAccess(link.id, link.passwordHash), `/${alias}/stats`, secure),
    );
    this.seeStats(response, alias, request);
  }

  /** 303 to the stats page, in the period the form was posted from. */
  private seeStats(response: Response, alias: string, request: Request): void {
    const range = chosenRange(request);
    response
      .status(303)
      .set({
        Location: `/${alias}/stats${range === null ? '' : `?range=${range}`}`,
        'Cache-Control': 'private, no-store',
      })
      .end();
  }

  private async find(request: Request, response: Response, alias: string): Promise<ResolvedLink | null> {
    const { found } = await this.visits.resolve(request, alias);
    // A disabled link is gone for visitors, its stats page included, as its redirect is.
    if (found === null || found.link.disabled) {
      if (this.wantsJson(request)) response.status(404).json({ message: 'Resource not found.', status: 404 });
      else this.visits.notFound(response);
      return null;
    }
    return found;
  }

  private async isOwner(request: Request, link: Link): Promise<boolean> {
    const key = bearerToken(request.headers.authorization);
    if (key === null) return false;
    const account = await this.accounts.findByApiKey(key);
    return account !== null && account.id === link.accountId;
  }

  /** Whether this browser gave the stats password lately (the signed cookie). */
  private hasAccess(request: Request, link: Link): boolean {
    if (link.passwordHash === null) return false;
    const hash = link.passwordHash;
    return cookieValues(request.headers.cookie, STATS_ACCESS_COOKIE).some((value) =>
      verifyStatsAccess(value, link.id, hash),
    );
  }

  private wantsJson(request: Request): boolean {
    return request.accepts(['html', 'json']) === 'json';
  }

  private forbidden(request: Request, response: Response, found: ResolvedLink): void {
    if (this.wantsJson(request)) {
      response.status(403).json({ message: 'Forbidden.', status: 403 });
      return;
    }
    const t = this.pages.translator(request);
    this.pages.send(response, 403, t, views.privateStats(t, { domain: found.domain.name }));
  }

  private passwordPage(
    request: Request,
    response: Response,
    found: ResolvedLink,
    alias: string,
    status: 200 | 403,
  ): void {
    if (this.wantsJson(request)) {
      response
        .status(status === 200 ? 401 : status)
        .json({ message: 'Password required.', status: status === 200 ? 401 : status });
      return;
    }
    const range = chosenRange(request);
    const t = this.pages.translator(request);
    this.pages.send(
      response,
      status,
      t,
      views.statsPassword(t, {
        action: `/${alias}/stats${range === null ? '' : `?range=${range}`}`,
        domain: found.domain.name,
        wrong: status === 403,
      }),
    );
  }

  private async render(request: Request, response: Response, found: ResolvedLink): Promise<void> {
    const { link, domain } = found;
    const choice = chosenRange(request) ?? DEFAULT_STATS_RANGE;
    const range = periodOf(choice, link.createdAt);
    const top = { page: 1, perPage: TOP };
    const dimensions = () =>
      Promise.all(STATS_DIMENSIONS.map((name) => this.stats.query(link.id, name, range, top)));
    response.set('Cache-Control', 'private, no-store');
    if (this.wantsJson(request)) {
      const dayCount = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS) + 1;
      const [days, clicks, lists] = await Promise.all([
        this.stats.query(link.id, 'clicks', range, { page: 1, perPage: dayCount }),
        this.stats.total(link.id, range),
        dimensions(),
      ]);
      const body: PublicStats = {
        alias: link.alias,
        from: day(range.from),
        to: day(range.to),
        clicks,
        days: days.items,
        dimensions: Object.fromEntries(
          STATS_DIMENSIONS.map((name, index) => [name, lists[index].items]),
        ) as PublicStats['dimensions'],
      };
      response.status(200).json(dataEnvelope(body));
      return;
    }
    const [series, total, lists] = await Promise.all([
      this.series.of(link.id, range),
      this.stats.total(link.id, range),
      dimensions(),
    ]);
    const t: Translator = this.pages.translator(request);
    this.pages.send(
      response,
      200,
      t,
      views.stats(t, {
        name: link.title ?? link.alias,
        alias: link.alias,
        shortUrl: shortUrl(domain, this.domains.scheme, link.alias),
        range: choice,
        from: range.from,
        to: range.to,
        total,
        series,
        dimensions: STATS_DIMENSIONS.map((name, index) => ({ name, rows: lists[index].items })),
      }),
    );
  }
}
