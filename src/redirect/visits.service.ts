import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientKey } from '../common/client-address';
import { verifySecret } from '../common/secret-hash';
import { serverConfig, visitsConfig, type ServerConfig, type VisitsConfig } from '../config/app-config';
import type { Domain } from '../domains/domain.entity';
import { shortUrl } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import { linkStatus, LinkStatus } from '../links/link-status';
import { countersOf } from '../links/link-counter.entity';
import type { Link } from '../links/link.entity';
import { LinkPixels } from '../links/link-pixels';
import { LinksService } from '../links/links.service';
import { ClickWriter } from '../clicks/click-writer';
import { MetricsService } from '../metrics/metrics.service';
import { GeoIp } from '../targeting/geoip';
import { asksNotToBeTracked, profileVisitor, type VisitorProfile } from '../targeting/visitor';
import { AttemptLimiter } from './attempt-limiter';
import { locationUrl } from '../common/url-rules';
import { mergeQuery, visitorQueryFits } from './destination';
import { trusted } from '../common/html';
import { Pages } from './pages';
import { pixelMarkup } from './pixel-markup';
import { destinationOf, firstStep, isCounted, rotates, VisitStep, type VisitRules } from './visit-plan';
import { hostOf, views, type LeadsTo } from './views';
import { issueVisitToken, verifyVisitToken } from './visit-token';

const ALIAS = /^[A-Za-z0-9_-]{1,255}$/;

export interface ResolvedLink {
  domain: Domain;
  link: Link;
  hasPixels: boolean;
}

/** What a visit carries from the first request through the password and consent forms. */
export interface Carried {
  /** The visitor's own query string, merged into the destination. */
  query: string;
  /** The page the visitor came from (only its host is ever recorded). */
  referrer: string;
}

/** From the URL and headers on a GET; from the forms' hidden fields on a POST. */
export function carried(request: Request): Carried {
  if (request.method === 'POST') {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return {
      // The forms carry what a GET let through; a longer one was not written by this service and is dropped.
      query: typeof body.q === 'string' && visitorQueryFits(body.q) ? body.q : '',
      referrer: typeof body.ref === 'string' ? body.ref.slice(0, 2048) : '',
    };
  }
  return { query: request.originalUrl.split('?')[1] ?? '', referrer: request.headers.referer ?? '' };
}

/** The rules of a link as the visit plan reads them. */
function visitRules(link: Link): VisitRules {
  return { ...link, hasRedirectPassword: link.redirectPasswordHash !== null };
}

/**
 * A visit to a short link, in the contract's order: unknown, disabled, expired, password, sensitive content,
 * bots, then the counted click, the destination and the redirect (through the pixels page when it has pixels).
 */
@Injectable()
export class VisitsService {
  constructor(
    private readonly domains: DomainsService,
    private readonly links: LinksService,
    private readonly linkPixels: LinkPixels,
    private readonly clicks: ClickWriter,
    private readonly geoip: GeoIp,
    private readonly pages: Pages,
    private readonly limiter: AttemptLimiter,
    private readonly metrics: MetricsService,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** The domain of the request's host, and the link of the alias there, when there is one. */
  async resolve(
    request: { headers: { host?: string } },
    alias: string,
  ): Promise<{ domain: Domain; found: ResolvedLink | null }> {
    const domain = await this.domains.forHost(request.headers.host);
    if (!ALIAS.test(alias)) return { domain, found: null };
    const found = await this.links.findByAlias(domain.id, alias);
    return { domain, found: found === null ? null : { domain, ...found } };
  }

  /**
   * Answers for links nobody may visit now (unknown, disabled, expired) and returns null; else the link.
   */
  async gate(request: Request, response: Response, alias: string): Promise<ResolvedLink | null> {
    const { domain, found } = await this.resolve(request, alias);
    if (found === null) {
      this.metrics.redirect('not_found');
      if (domain.notFoundPage !== null) this.redirect(response, domain.notFoundPage, 302);
      else this.notFound(response);
      return null;
    }
    const step = firstStep(visitRules(found.link), countersOf(found.link).clicks);
    if (step === VisitStep.NotFound) {
      this.metrics.redirect('not_found');
      this.notFound(response);
      return null;
    }
    if (step === VisitStep.Expired) {
      this.metrics.redirect('expired');
      this.expired(response, found.link);
      return null;
    }
    return found;
  }

  /** `GET /{alias}`. */
  async open(request: Request, response: Response, alias: string): Promise<void> {
    if (!visitorQueryFits(carried(request).query)) {
      const t = this.pages.translator(request);
      this.pages.send(response, 414, t, views.queryTooLong(t));
      return;
    }
    const found = await this.gate(request, response, alias);
    if (found === null) return;
    switch (firstStep(visitRules(found.link), countersOf(found.link).clicks)) {
      case VisitStep.Password:
        this.metrics.redirect('password');
        this.passwordPage(request, response, found, carried(request), 200, null);
        return;
      case VisitStep.Consent:
        this.metrics.redirect('consent');
        this.consentPage(request, response, found, carried(request), '');
        return;
      case VisitStep.Visit:
        await this.visit(request, response, found);
        return;
      case VisitStep.NotFound:
      case VisitStep.Expired:
        // The gate answered these.
        return;
    }
  }

  /** `POST /{alias}/password`. */
  async submitPassword(request: Request, response: Response, alias: string): Promise<void> {
    const found = await this.gate(request, response, alias);
    if (found === null) return;
    const { link } = found;
    const carry = carried(request);
    if (link.redirectPasswordHash === null) {
      await this.continueAfterPassword(request, response, found, carry);
      return;
    }
    const key = `${clientKey(request.ip)}|${link.id}`;
    const wait = await this.limiter.attempt(key);
    if (wait > 0) {
      this.pages.sendTooManyAttempts(response, wait);
      return;
    }
    const password = (request.body as Record<string, unknown> | undefined)?.password;
    if (typeof password !== 'string' || !(await verifySecret(password, link.redirectPasswordHash))) {
      this.passwordPage(request, response, found, carry, 403, 'passwordWrong');
      return;
    }
    // The consent token is keyed by the hash: it must be issued with the one the link has from now on.
    link.redirectPasswordHash = await this.links.upgradeSecretHash(
      link.id,
      'redirectPasswordHash',
      link.redirectPasswordHash,
      password,
    );
    await this.continueAfterPassword(request, response, found, carry);
  }

  /** `POST /{alias}/sensitive-consent`. */
  async submitConsent(request: Request, response: Response, alias: string): Promise<void> {
    const found = await this.gate(request, response, alias);
    if (found === null) return;
    const { link } = found;
    const token = (request.body as Record<string, unknown> | undefined)?.token;
    // Consent cannot skip the password: the form carries proof that it was given.
    if (link.redirectPasswordHash !== null && !verifyVisitToken(token, link.id, link.redirectPasswordHash)) {
      this.passwordPage(request, response, found, carried(request), 403, 'passwordFirst');
      return;
    }
    await this.visit(request, response, found);
  }

  /** `GET /{alias}/+`: what the link is, without visiting it or counting anything. */
  async preview(request: Request, response: Response, alias: string): Promise<void> {
    const { found } = await this.resolve(request, alias);
    if (found === null || found.link.disabled) {
      this.notFound(response);
      return;
    }
    const { link, domain } = found;
    const t = this.pages.translator(request);
    this.pages.send(
      response,
      200,
      t,
      views.preview(t, {
        alias: link.alias,
        shortUrl: shortUrl(domain, this.domains.scheme, link.alias),
        title: link.title,
        destination: link.url,
        // A password keeps the destination to those who know it: only its host is shown.
        hidden: link.redirectPasswordHash !== null,
        active: linkStatus(link, countersOf(link).clicks) === LinkStatus.Active,
      }),
    );
  }

  /** The short URL of an enabled link, on the domain the request came to; null for none. */
  async shortUrlOf(request: Request, alias: string): Promise<string | null> {
    const { found } = await this.resolve(request, alias);
    if (found === null || found.link.disabled) return null;
    return shortUrl(found.domain, this.domains.scheme, found.link.alias);
  }

  /** `GET /`: the domain's index page, where it has one; else a page that says what this service is. */
  async root(request: Request, response: Response): Promise<void> {
    const domain = await this.domains.forHost(request.headers.host);
    if (domain.indexPage !== null) {
      this.redirect(response, domain.indexPage, 302);
      return;
    }
    const t = this.pages.translator(request);
    this.pages.send(response, 200, t, views.root(t, { name: this.server.appName, domain: domain.name }));
  }

  private async continueAfterPassword(
    request: Request,
    response: Response,
    found: ResolvedLink,
    carry: Carried,
  ): Promise<void> {
    const { link } = found;
    if (link.sensitiveContent) {
      const token =
        link.redirectPasswordHash === null ? '' : issueVisitToken(link.id, link.redirectPasswordHash);
      this.metrics.redirect('consent');
      this.consentPage(request, response, found, carry, token);
    } else {
      await this.visit(request, response, found);
    }
  }

  /** The end of every path: bots go through uncounted; people are counted, recorded and sent on. */
  private async visit(request: Request, response: Response, found: ResolvedLink): Promise<void> {
    const { link } = found;
    const { query, referrer } = carried(request);
    const visitor = this.profile(request, referrer);
    if (!isCounted(visitor, request.method)) {
      this.metrics.redirect('bot');
      this.redirect(
        response,
        mergeQuery(destinationOf(link, visitor, null), query),
        this.config.redirectStatus,
      );
      return;
    }
    const counted = await this.clicks.count(
      { id: link.id, clicksLimit: link.clicksLimit, rotates: rotates(link) },
      visitor,
    );
    if (counted === null) {
      // The limit was reached, or the period ended, since the link was read.
      this.metrics.redirect('expired');
      this.expired(response, link);
      return;
    }
    const destination = locationUrl(mergeQuery(destinationOf(link, visitor, counted.rotation), query));
    this.metrics.redirect('redirected');
    if (found.hasPixels) {
      const { html, allow } = pixelMarkup(await this.linkPixels.of(link.id));
      const t = this.pages.translator(request);
      this.pages.send(response, 200, t, views.pixels(t, { destination, pixels: trusted(html), allow }));
      return;
    }
    this.redirect(response, destination, this.config.redirectStatus);
  }

  private profile(request: Request, referrer: string): VisitorProfile {
    return profileVisitor(
      {
        userAgent: request.headers['user-agent'],
        acceptLanguage: request.headers['accept-language'],
        referer: referrer,
        place: this.geoip.locate(request.ip),
        doNotTrack: asksNotToBeTracked(request.headers),
      },
      this.config,
    );
  }

  private redirect(response: Response, location: string, status: number): void {
    response
      .status(status)
      .set({ 'Cache-Control': 'private, no-store', Location: locationUrl(location) })
      .end();
  }

  /** The HTML 404 page, for visitor addresses that name nothing. */
  notFound(response: Response): void {
    const t = this.pages.translator(response.req);
    this.pages.send(response, 404, t, views.notFound(t));
  }

  private expired(response: Response, link: Link): void {
    if (link.expirationUrl !== null) {
      this.redirect(response, link.expirationUrl, 302);
      return;
    }
    const page = this.pages.expiredPage(response.req.headers['accept-language']);
    response.status(410).set(page.headers).send(page.body);
  }

  /**
   * Where the link leads this visitor, as the password and consent pages say it: the host of the destination that
   * targeting picks for them; for a rotation, its one host, or null when its values are on several.
   */
  private leadsTo(request: Request, found: ResolvedLink): LeadsTo {
    const { link, domain } = found;
    if (rotates(link)) {
      const hosts = new Set((link.targets ?? []).map((target) => hostOf(target.value)));
      return { domain: domain.name, host: hosts.size === 1 ? [...hosts][0] : null };
    }
    return { domain: domain.name, host: hostOf(destinationOf(link, this.profile(request, ''), null)) };
  }

  private passwordPage(
    request: Request,
    response: Response,
    found: ResolvedLink,
    carry: Carried,
    status: number,
    error: 'passwordWrong' | 'passwordFirst' | null,
  ): void {
    const t = this.pages.translator(request);
    const form = { action: `/${found.link.alias}/password`, query: carry.query, referrer: carry.referrer };
    this.pages.send(
      response,
      status,
      t,
      views.password(t, { form, leads: this.leadsTo(request, found), error }),
    );
  }

  private consentPage(
    request: Request,
    response: Response,
    found: ResolvedLink,
    carry: Carried,
    token: string,
  ): void {
    const t = this.pages.translator(request);
    const form = {
      action: `/${found.link.alias}/sensitive-consent`,
      query: carry.query,
      referrer: carry.referrer,
    };
    this.pages.send(response, 200, t, views.consent(t, { form, token, leads: this.leadsTo(request, found) }));
  }
}
