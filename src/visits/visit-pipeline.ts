import { Inject, Injectable } from '@nestjs/common';
import { ClickWriter } from '../clicks/click-writer';
import { clientKey } from '../common/client-address';
import { trusted } from '../common/html';
import { verifySecret } from '../common/secret-hash';
import { locationUrl } from '../common/url-rules';
import { serverConfig, visitsConfig, type ServerConfig, type VisitsConfig } from '../config/app-config';
import type { Domain } from '../domains/domain.entity';
import { shortUrl } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import { isAlias } from '../links/alias';
import { LinkCache, type VisitLink } from '../links/link-cache';
import { LinkPixels } from '../links/link-pixels';
import { linkStatus, LinkStatus } from '../links/status/link-status';
import { countersOf, type Link } from '../links/link.entity';
import { LinksService } from '../links/links.service';
import { GeoIp } from '../targeting/geoip';
import { asksNotToBeTracked, profileVisitor, type VisitorProfile } from '../targeting/visitor';
import { AttemptLimiter } from '../visitor-limits/attempt-limiter';
import { retryAfter } from '../visitor-pages/pages';
import { pixelMarkup } from '../visitor-pages/pixel-markup';
import { hostOf, views, type LeadsTo } from '../visitor-pages/views';
import { mergeQuery, visitorQueryFits } from './destination';
import { redirectTo, type VisitOutcome, type VisitRequest } from './visit';
import { destinationOf, firstStep, isCounted, rotates } from './visit-plan';
import { issueVisitToken, verifyVisitToken } from './visit-token';

/** A short link found at a domain: the link as visits read it (cached), or null when none is there. */
export interface Resolved {
  domain: Domain;
  alias: string;
  link: VisitLink | null;
}

/** A link found where it was asked for. */
interface Visited {
  domain: Domain;
  link: VisitLink;
}

/** A link as its forms read it: with its password's hash and its clicks so far, beside what visits read of it. */
interface Stored {
  visited: Visited;
  link: Link;
}

/**
 * A visit, framework-free: resolve the link, decide in the contract's order (unknown, disabled, expired, password,
 * sensitive content, bots, the counted click), and return what the visitor gets as a {@link VisitOutcome}. The routes
 * and the redirect's fast path are adapters of this one class and of the writer; no rule of a visit lives in them.
 */
@Injectable()
export class VisitPipeline {
  constructor(
    private readonly domains: DomainsService,
    private readonly cache: LinkCache,
    private readonly links: LinksService,
    private readonly linkPixels: LinkPixels,
    private readonly clicks: ClickWriter,
    private readonly geoip: GeoIp,
    private readonly limiter: AttemptLimiter,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  /** The link at `alias` on the request's host: from memory when it is there (no promise), else read. */
  resolve(host: string | undefined, alias: string): Resolved | Promise<Resolved> {
    const domain = this.domains.cachedForHost(host);
    const link = domain === undefined || !isAlias(alias) ? undefined : this.cache.peek(domain.id, alias);
    if (domain !== undefined && link !== undefined) return { domain, alias, link };
    return this.read(host, alias);
  }

  private async read(host: string | undefined, alias: string): Promise<Resolved> {
    const domain = await this.domains.forHost(host);
    const link = isAlias(alias) ? await this.cache.get(domain.id, alias) : null;
    return { domain, alias, link };
  }

  /**
   * Whether a visit of the link ends in a redirect (or the expired answer) without a page on the way: no password,
   * consent or pixels, inside its period. The fast path answers only these.
   */
  isPlain(link: VisitLink): boolean {
    return !link.hasPixels && firstStep(link, null) === 'visit';
  }

  /**
   * The visit of a link {@link isPlain} let through, on the fast path, which checked the query's length: its
   * redirect, or the expired answer once its limit was found reached.
   */
  plainVisit(link: VisitLink, visit: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    return link.exhausted ? this.expired(link) : this.sendOn(link, visit);
  }

  /** `GET /{alias}`: no promise when the link was in memory and its click needs no claim. */
  open(found: Resolved, visit: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    if (!visitorQueryFits(visit.query)) return { kind: 'too-large' };
    const { link } = found;
    if (link === null) return this.unknown(found.domain);
    // The clicks are not read here: a limit is left to the count, which never grants a click past it.
    const step = link.exhausted ? 'expired' : firstStep(link, null);
    switch (step) {
      case 'not-found':
        return this.unknown(null);
      case 'expired':
        return this.expired(link);
      case 'password':
      case 'consent':
        return this.gate(found, visit);
      case 'visit':
        return this.sendOn(link, visit);
    }
  }

  /** `POST /{alias}/password`. */
  async password(found: Resolved, visit: VisitRequest): Promise<VisitOutcome> {
    const stored = await this.stored(found);
    if (!('link' in stored)) return stored;
    const { link } = stored;
    if (link.redirectPasswordHash === null) return this.afterPassword(stored, visit);
    const wait = await this.limiter.attempt(`${clientKey(visit.address)}|${link.id}`);
    if (wait > 0) {
      const { header, waitMs } = retryAfter(wait);
      return { kind: 'page', status: 429, view: (t) => views.tooManyAttempts(t, waitMs), headers: header };
    }
    const password = visit.form.password;
    if (typeof password !== 'string' || !(await verifySecret(password, link.redirectPasswordHash))) {
      return this.passwordPage(stored.visited, visit, 403, 'passwordWrong');
    }
    // The consent token is keyed by the hash: it must be issued with the one the link has from now on.
    link.redirectPasswordHash = await this.links.upgradeSecretHash(
      link.id,
      'redirectPasswordHash',
      link.redirectPasswordHash,
      password,
    );
    return this.afterPassword(stored, visit);
  }

  /** `POST /{alias}/sensitive-consent`. */
  async consent(found: Resolved, visit: VisitRequest): Promise<VisitOutcome> {
    const stored = await this.stored(found);
    if (!('link' in stored)) return stored;
    const { link } = stored;
    // Consent cannot skip the password: the form carries proof that it was given.
    if (
      link.redirectPasswordHash !== null &&
      !verifyVisitToken(visit.form.token, link.id, link.redirectPasswordHash)
    ) {
      return this.passwordPage(stored.visited, visit, 403, 'passwordFirst');
    }
    return this.sendOn(stored.visited.link, visit);
  }

  /** `GET /{alias}/+`: what the link is, without visiting it or counting anything. */
  async preview(found: Resolved): Promise<VisitOutcome> {
    const stored = found.link === null ? null : await this.links.findByAlias(found.domain.id, found.alias);
    if (stored === null || stored.link.disabled) return { kind: 'not-found' };
    const { link } = stored;
    const input = {
      alias: link.alias,
      shortUrl: shortUrl(found.domain, this.domains.scheme, link.alias),
      title: link.title,
      destination: link.url,
      // A password keeps the destination to those who know it: only its host is shown.
      hidden: link.redirectPasswordHash !== null,
      active: linkStatus(link, countersOf(link).clicks) === LinkStatus.Active,
    };
    return { kind: 'page', status: 200, view: (t) => views.preview(t, input) };
  }

  /** `GET /`: the domain's index page, where it has one; else a page that says what this service is. */
  async root(host: string | undefined): Promise<VisitOutcome> {
    const domain = await this.domains.forHost(host);
    if (domain.indexPage !== null) return redirectTo(locationUrl(domain.indexPage), 302);
    const input = { name: this.server.appName, domain: domain.name, own: domain.accountId === null };
    return { kind: 'page', status: 200, view: (t) => views.root(t, input) };
  }

  /** The short URL of an enabled link, on the domain it was found at; null for none. */
  shortUrlOf(found: Resolved): string | null {
    if (found.link === null || found.link.disabled) return null;
    return shortUrl(found.domain, this.domains.scheme, found.link.alias);
  }

  /** No link here: the domain's own not-found page, where it has one (a visit), else ours. */
  private unknown(domain: Domain | null): VisitOutcome {
    if (domain?.notFoundPage != null) return redirectTo(locationUrl(domain.notFoundPage), 302, 'not_found');
    return { kind: 'not-found', metric: 'not_found' };
  }

  /** A link nobody may visit any more: its expiration_url, or the expired page. */
  private expired(link: { expirationUrl: string | null }): VisitOutcome {
    if (link.expirationUrl !== null) return redirectTo(locationUrl(link.expirationUrl), 302, 'expired');
    return { kind: 'expired' };
  }

  /**
   * The link as its forms read it, with its clicks: a limit reached is expired before any form. An outcome
   * instead when nobody may visit it now.
   */
  private async stored(found: Resolved): Promise<Stored | VisitOutcome> {
    if (found.link === null) return this.unknown(found.domain);
    const row = await this.links.findByAlias(found.domain.id, found.alias);
    if (row === null) return this.unknown(found.domain);
    const { link } = row;
    const step = firstStep(
      { ...link, hasRedirectPassword: link.redirectPasswordHash !== null },
      countersOf(link).clicks,
    );
    if (step === 'not-found') return this.unknown(null);
    if (step === 'expired') return this.expired(link);
    return { visited: { domain: found.domain, link: found.link }, link };
  }

  /** The first request to a link with a password or sensitive content: its form. */
  private async gate(found: Resolved, visit: VisitRequest): Promise<VisitOutcome> {
    const stored = await this.stored(found);
    if (!('link' in stored)) return stored;
    if (stored.link.redirectPasswordHash !== null) {
      return { ...this.passwordPage(stored.visited, visit, 200, null), metric: 'password' };
    }
    return this.consentPage(stored.visited, visit, '');
  }

  private afterPassword(stored: Stored, visit: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    const { link, visited } = stored;
    if (!link.sensitiveContent) return this.sendOn(visited.link, visit);
    const token =
      link.redirectPasswordHash === null ? '' : issueVisitToken(link.id, link.redirectPasswordHash);
    return this.consentPage(visited, visit, token);
  }

  /**
   * The end of every visit: bots go through uncounted; people are counted and sent on (through the pixels page
   * when the link has pixels). No promise when the click needs no claim and the link no pixels.
   */
  private sendOn(link: VisitLink, visit: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    const visitor = this.profile(visit, visit.referrer);
    if (!isCounted(visitor, visit.method)) {
      return redirectTo(this.location(link, visitor, null, visit.query), this.config.redirectStatus, 'bot');
    }
    const counted = this.clicks.count(
      { id: link.id, clicksLimit: link.clicksLimit, rotates: rotates(link) },
      visitor,
    );
    if (!(counted instanceof Promise)) return this.counted(link, visitor, counted.rotation, visit);
    return counted.then((click) => {
      if (click !== null) return this.counted(link, visitor, click.rotation, visit);
      // The limit was reached, or the period ended, since the link was read: the next visits are answered as
      // expired from memory, until the link changes and leaves the cache.
      if (link.clicksLimit !== null && link.clicksLimit > 0) link.exhausted = true;
      return this.expired(link);
    });
  }

  private counted(
    link: VisitLink,
    visitor: VisitorProfile,
    rotation: number | null,
    visit: VisitRequest,
  ): VisitOutcome | Promise<VisitOutcome> {
    const location = this.location(link, visitor, rotation, visit.query);
    if (!link.hasPixels) return redirectTo(location, this.config.redirectStatus, 'redirected');
    return this.linkPixels.of(link.id).then((pixels): VisitOutcome => {
      const { html, allow } = pixelMarkup(pixels);
      const input = { destination: location, pixels: trusted(html), allow };
      return { kind: 'page', status: 200, view: (t) => views.pixels(t, input), metric: 'redirected' };
    });
  }

  /** The Location a visitor is sent to: the destination the rules pick, with the visitor's query merged in. */
  private location(link: VisitLink, visitor: VisitorProfile, rotation: number | null, query: string): string {
    const destination = destinationOf(link, visitor, rotation);
    if (query === '') return link.locations.get(destination) ?? locationUrl(destination);
    return locationUrl(mergeQuery(destination, query));
  }

  private profile(visit: VisitRequest, referrer: string): VisitorProfile {
    return profileVisitor(
      {
        userAgent: visit.headers['user-agent'],
        acceptLanguage: visit.headers['accept-language'],
        referer: referrer,
        place: this.geoip.locate(visit.address),
        doNotTrack: asksNotToBeTracked(visit.headers),
      },
      this.config,
    );
  }

  /**
   * Where the link leads this visitor, as the password and consent pages say it: the host of the destination that
   * targeting picks for them; for a rotation, its one host, or null when its values are on several.
   */
  private leadsTo({ domain, link }: Visited, visit: VisitRequest): LeadsTo {
    if (rotates(link)) {
      const hosts = new Set((link.targets ?? []).map((target) => hostOf(target.value)));
      return { domain: domain.name, host: hosts.size === 1 ? [...hosts][0] : null };
    }
    return { domain: domain.name, host: hostOf(destinationOf(link, this.profile(visit, ''), null)) };
  }

  private passwordPage(
    visited: Visited,
    visit: VisitRequest,
    status: number,
    error: 'passwordWrong' | 'passwordFirst' | null,
  ): VisitOutcome & { kind: 'page' } {
    const form = { action: `/${visited.link.alias}/password`, query: visit.query, referrer: visit.referrer };
    const input = { form, leads: this.leadsTo(visited, visit), error };
    return { kind: 'page', status, view: (t) => views.password(t, input) };
  }

  private consentPage(visited: Visited, visit: VisitRequest, token: string): VisitOutcome {
    const form = {
      action: `/${visited.link.alias}/sensitive-consent`,
      query: visit.query,
      referrer: visit.referrer,
    };
    const input = { form, token, leads: this.leadsTo(visited, visit) };
    return { kind: 'page', status: 200, view: (t) => views.consent(t, input), metric: 'consent' };
  }
}
