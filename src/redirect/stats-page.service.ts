import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientKey } from '../common/client-address';
import { AccountsService } from '../auth/accounts.service';
import { bearerToken } from '../auth/api-key';
import { dataEnvelope } from '../common/envelope';
import { verifySecret } from '../common/secret-hash';
import { LinkPrivacy, type Link } from '../links/link.entity';
import { LinksService } from '../links/links.service';
import type { StatsDimension } from '../stats/dto/stats-query.dto';
import { statsRange, StatsService, type StatsRow } from '../stats/stats.service';
import { AttemptLimiter } from './attempt-limiter';
import { escapeHtml, Pages } from './pages';
import { VisitsService } from './visits.service';

/** The dimensions the page shows (the city is not among them yet). */
type PageDimension = Exclude<StatsDimension, 'city'>;

const DIMENSION_TITLES: Record<PageDimension, string> = {
  referrer: 'Referrers',
  country: 'Countries',
  continent: 'Continents',
  browser: 'Browsers',
  operating_system: 'Operating systems',
  device: 'Devices',
  language: 'Languages',
};

const TOP = 10;

interface PublicStats {
  alias: string;
  from: string;
  to: string;
  clicks: number;
  days: StatsRow[];
  dimensions: Record<PageDimension, StatsRow[]>;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The public stats page of a link, `GET /{alias}/stats`: open for privacy 0, the owner's API key for 1, the
 * stats password for 2 (`POST /{alias}/stats`). HTML, or JSON for `Accept: application/json`.
 */
@Injectable()
export class StatsPageService {
  constructor(
    private readonly visits: VisitsService,
    private readonly stats: StatsService,
    private readonly accounts: AccountsService,
    private readonly limiter: AttemptLimiter,
    private readonly pages: Pages,
    private readonly links: LinksService,
  ) {}

  async show(request: Request, response: Response, alias: string): Promise<void> {
    const link = await this.link(request, response, alias);
    if (link === null) return;
    if (link.privacy === LinkPrivacy.Private && !(await this.isOwner(request, link))) {
      this.forbidden(request, response);
      return;
    }
    if (link.privacy === LinkPrivacy.Password && !(await this.isOwner(request, link))) {
      this.passwordPage(request, response, link, 200, null);
      return;
    }
    await this.render(request, response, link);
  }

  async submitPassword(request: Request, response: Response, alias: string): Promise<void> {
    const link = await this.link(request, response, alias);
    if (link === null) return;
    if (link.privacy !== LinkPrivacy.Password || link.passwordHash === null) {
      await this.show(request, response, alias);
      return;
    }
    const key = `stats|${clientKey(request.ip)}|${link.id}`;
    const wait = this.limiter.retryAfter(key);
    if (wait > 0) {
      if (this.wantsJson(request)) {
        response.set('Retry-After', String(Math.ceil(wait / 1000)));
        response.status(429).json({ message: 'Too Many Attempts.', status: 429 });
      } else {
        this.pages.sendTooManyAttempts(response, wait);
      }
      return;
    }
    // Counted before the slow check, so that guesses sent all at once cannot all pass the limit; a right one clears it.
    this.limiter.fail(key);
    const password = (request.body as Record<string, unknown> | undefined)?.password;
    if (typeof password !== 'string' || !(await verifySecret(password, link.passwordHash))) {
      this.passwordPage(request, response, link, 403, 'That password is not right. Try again.');
      return;
    }
    this.limiter.succeed(key);
    await this.links.upgradeSecretHash(link.id, 'passwordHash', link.passwordHash, password);
    await this.render(request, response, link);
  }

  private async link(request: Request, response: Response, alias: string): Promise<Link | null> {
    const { found } = await this.visits.resolve(request, alias);
    // A disabled link is gone for visitors, its stats page included, as its redirect is.
    if (found === null || found.link.disabled) {
      if (this.wantsJson(request)) response.status(404).json({ message: 'Resource not found.', status: 404 });
      else this.pages.send(response, 404, 'not-found', {}, { title: 'Link not found' });
      return null;
    }
    return found.link;
  }

  private async isOwner(request: Request, link: Link): Promise<boolean> {
    const key = bearerToken(request.headers.authorization);
    if (key === null) return false;
    const account = await this.accounts.findByApiKey(key);
    return account !== null && account.id === link.accountId;
  }

  private wantsJson(request: Request): boolean {
    return request.accepts(['html', 'json']) === 'json';
  }

  private forbidden(request: Request, response: Response): void {
    if (this.wantsJson(request)) response.status(403).json({ message: 'Forbidden.', status: 403 });
    else this.pages.send(response, 403, 'forbidden', {}, { title: 'Private statistics' });
  }

  private passwordPage(
    request: Request,
    response: Response,
    link: Link,
    status: number,
    error: string | null,
  ): void {
    if (this.wantsJson(request)) {
      response
        .status(status === 200 ? 401 : status)
        .json({ message: 'Password required.', status: status === 200 ? 401 : status });
      return;
    }
    this.pages.send(
      response,
      status,
      'password',
      { action: `/${link.alias}/stats`, query: '' },
      { title: 'Password required', heading: 'These statistics are protected' },
      { error: error === null ? '' : `<p class="error" role="alert">${escapeHtml(error)}</p>` },
    );
  }

  private async collect(link: Link): Promise<PublicStats> {
    const range = statsRange(null, null);
    const first = { page: 1, perPage: 100 };
    const top = { page: 1, perPage: TOP };
    const names = Object.keys(DIMENSION_TITLES) as PageDimension[];
    const [days, clicks, ...lists] = await Promise.all([
      this.stats.query(link.id, 'clicks', range, first),
      this.stats.total(link.id, range),
      ...names.map((name) => this.stats.query(link.id, name, range, top)),
    ]);
    const dimensions = Object.fromEntries(
      names.map((name, index) => [name, lists[index].items]),
    ) as PublicStats['dimensions'];
    return {
      alias: link.alias,
      from: day(range.from),
      to: day(range.to),
      clicks,
      days: days.items,
      dimensions,
    };
  }

  private async render(request: Request, response: Response, link: Link): Promise<void> {
    const stats = await this.collect(link);
    response.set('Cache-Control', 'private, no-store');
    if (this.wantsJson(request)) {
      response.status(200).json(dataEnvelope(stats));
      return;
    }
    const table = (caption: string, heading: string, rows: StatsRow[]) =>
      `<table><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">${escapeHtml(heading)}</th>` +
      `<th scope="col" class="count">Clicks</th></tr></thead><tbody>` +
      (rows.length === 0
        ? '<tr><td colspan="2">None yet</td></tr>'
        : rows
            .map(
              (row) =>
                `<tr><td>${escapeHtml(row.value ?? 'Unknown')}</td><td class="count">${row.count}</td></tr>`,
            )
            .join('')) +
      '</tbody></table>';
    const tables = [
      table(
        'Clicks per day',
        'Day',
        stats.days.filter((row) => row.count > 0),
      ),
      ...Object.entries(stats.dimensions).map(([name, rows]) =>
        table(DIMENSION_TITLES[name as keyof typeof DIMENSION_TITLES], 'Value', rows),
      ),
    ].join('\n');
    this.pages.send(
      response,
      200,
      'stats',
      { total: stats.clicks, from: stats.from, to: stats.to },
      { title: `Statistics of ${link.alias}` },
      { tables },
    );
  }
}
