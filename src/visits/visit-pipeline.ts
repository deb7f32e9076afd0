import { Inject, Injectable } from '@nestjs/common';
import { BY_TURN, ClickWriter, type CountedClick } from '../clicks/click-writer';
import { clientKey } from '../common/client-address';
import { verifySecret } from '../common/secret-hash';
import { hostOf, locationUrl } from '../common/url-rules';
import type { ValueOrPromise } from '../common/value-or-promise';
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
import { isPreviewCrawler } from '../targeting/preview-crawlers';
import { asksNotToBeTracked, profileVisitor, type VisitorProfile } from '../targeting/visitor';
import { AttemptLimiter } from './limits/attempt-limiter';
import { mergeQuery, visitorQueryFits } from '../common/query-string';
import { redirectTo, type LeadsTo, type VisitOutcome, type VisitRequest } from './visit';
import { appLinkOf, destinationOf, firstStep, isCounted, rotates } from './visit-plan';
import { issueVisitToken, verifyVisitToken } from './visit-token';

const ASSET_LINKS_PATH = '/.well-known/assetlinks.json';
/** Where a domain serves the files that let apps open its links: Apple's, then Android's. */
export const APP_FILE_PATHS = ['/.well-known/apple-app-site-association', ASSET_LINKS_PATH];

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
 * What recording a click gave: where the visitor goes, before the link's UTM parameters and the visitor's query;
 * null when the link may take no more.
 */
type Recorded = { destination: string; app: boolean } | null;

/** The turns of a link that does not rotate. */
const NO_TURNS: readonly string[] = [];

/**
 * A visit, framework-free: resolve the link, decide in the contract's order (unknown, disabled, expired, password,
 * sensitive content, bots), record the click ({@link recordClick}), and return what the visitor gets as a
 * {@link VisitOutcome}, plain data. The routes and the redirect's fast path are adapters of this one class and of
 * the writer, which picks the page; no rule of a visit lives in them.
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
  resolve(host: string | undefined, alias: string): ValueOrPromise<Resolved> {
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
  plainVisit(link: VisitLink, visit: VisitRequest): ValueOrPromise<VisitOutcome> {
    return link.exhausted ? this.expired(link) : this.sendOn(link, visit);
  }

  /** `GET /{alias}`. */
  async open(found: Resolved, visit: VisitRequest): Promise<VisitOutcome> {
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
    if (!('visited' in stored)) return stored;
    const { link } = stored;
    if (link.redirectPasswordHash === null) return this.afterPassword(stored, visit);
    const wait = await this.limiter.attempt(`${clientKey(visit.address)}|${link.id}`);
    if (wait > 0) return { kind: 'too-many-attempts', waitMs: wait };
    const password = visit.form.password;
    if (typeof password !== 'string' || !(await verifySecret(password, link.redirectPasswordHash))) {
      return this.passwordForm(stored.visited, visit, 'passwordWrong');
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
    if (!('visited' in stored)) return stored;
    const { link } = stored;
    // Consent cannot skip the password: the form carries proof that it was given.
    if (
      link.redirectPasswordHash !== null &&
      !verifyVisitToken(visit.form.token, link.id, link.redirectPasswordHash)
    ) {
      return this.passwordForm(stored.visited, visit, 'passwordFirst');
    }
    return this.sendOn(stored.visited.link, visit);
  }

  /** `GET /{alias}/+`: what the link is, without visiting it or counting anything. */
  async preview(found: Resolved): Promise<VisitOutcome> {
    const stored = found.link === null ? null : await this.links.findByAlias(found.domain.id, found.alias);
    if (stored === null || stored.link.disabled) return { kind: 'not-found' };
    const { link } = stored;
    const facts = {
      alias: link.alias,
      shortUrl: shortUrl(found.domain, this.domains.scheme, link.alias),
      title: link.title,
      destination: link.url,
      hidden: link.redirectPasswordHash !== null,
      active: linkStatus(link, countersOf(link).clicks) === LinkStatus.Active,
    };
    return { kind: 'preview', link: facts };
  }

  /** `GET /`: the domain's index page, where it has one; else a page that says what this service is. */
  async root(host: string | undefined): Promise<VisitOutcome> {
    const domain = await this.domains.forHost(host);
    if (domain.indexPage !== null) return redirectTo(locationUrl(domain.indexPage), 302);
    return { kind: 'root', name: this.server.appName, domain: domain.name, own: domain.accountId === null };
  }

  /** The app file at `path` (one of {@link APP_FILE_PATHS}) of the request's domain; null when it has none. */
  async appFile(host: string | undefined, path: string): Promise<string | null> {
    const domain = await this.domains.forHost(host);
    return path === ASSET_LINKS_PATH ? domain.assetlinks : domain.appleAppSiteAssociation;
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
    if (!('visited' in stored)) return stored;
    if (stored.link.redirectPasswordHash !== null) return this.passwordForm(stored.visited, visit, null);
    return this.consentForm(stored.visited, visit, '');
  }

  private async afterPassword(stored: Stored, visit: VisitRequest): Promise<VisitOutcome> {
    const { link, visited } = stored;
    if (!link.sensitiveContent) return this.sendOn(visited.link, visit);
    const token =
      link.redirectPasswordHash === null ? '' : issueVisitToken(link.id, link.redirectPasswordHash);
    return this.consentForm(visited, visit, token);
  }

  /**
   * The end of every visit: bots go through uncounted; people are counted ({@link recordClick}) and sent on
   * (through the pixels page when the link has pixels). No promise when the click needs no claim and the link no
   * pixels: the fast path's plain redirect.
   */
  private sendOn(link: VisitLink, visit: VisitRequest): ValueOrPromise<VisitOutcome> {
    const visitor = this.profile(visit, visit.referrer);
    if (!isCounted(visitor, visit.method)) {
      // The social networks' crawlers get the link's preview, where it has one; other bots go through.
      if (link.preview !== null && visitor.bot && isPreviewCrawler(visit.headers['user-agent'])) {
        return { kind: 'social-preview', preview: link.preview, destination: link.url };
      }
      const destination = appLinkOf(link, visitor) ?? destinationOf(link, visitor, null);
      return redirectTo(this.location(link, destination, visit.query), this.config.redirectStatus, 'bot');
    }
    const recorded = this.recordClick(link, visitor);
    if (recorded instanceof Promise) return recorded.then((click) => this.arrive(link, click, visit));
    return this.arrive(link, recorded, visit);
  }

  /**
   * Records the visit's click, and where it was sent: the one place a click is counted. Null when the link may take
   * no more.
   */
  private recordClick(link: VisitLink, visitor: VisitorProfile): ValueOrPromise<Recorded> {
    const app = appLinkOf(link, visitor);
    // A visitor sent into the app takes no turn of the rotation.
    if (rotates(link) && app === null) {
      const counted = this.clicks.count(
        { id: link.id, clicksLimit: link.clicksLimit, turns: link.turns },
        visitor,
        BY_TURN,
      );
      const served = (click: CountedClick | null): Recorded =>
        click === null ? null : { destination: destinationOf(link, visitor, click.rotation), app: false };
      return counted instanceof Promise ? counted.then(served) : served(counted);
    }
    const recorded = { destination: app ?? destinationOf(link, visitor, null), app: app !== null };
    const counted = this.clicks.count(
      { id: link.id, clicksLimit: link.clicksLimit, turns: NO_TURNS },
      visitor,
      recorded.destination === link.url ? null : recorded.destination,
    );
    if (counted instanceof Promise) return counted.then((click) => (click === null ? null : recorded));
    return counted === null ? null : recorded;
  }

  /** Where a counted visit goes: the destination, through the pixels page when the link has pixels. */
  private arrive(link: VisitLink, click: Recorded, visit: VisitRequest): ValueOrPromise<VisitOutcome> {
    if (click === null) {
      // The limit was reached, or the period ended, since the link was read: the next visits are answered as
      // expired from memory, until the link changes and leaves the cache.
      if (link.clicksLimit !== null && link.clicksLimit > 0) link.exhausted = true;
      return this.expired(link);
    }
    const location = this.location(link, click.destination, visit.query);
    // Into the app at once: no page on the way, the pixels' included.
    if (!link.hasPixels || click.app) {
      return redirectTo(location, this.config.redirectStatus, 'redirected');
    }
    return this.linkPixels
      .of(link.id)
      .then((pixels): VisitOutcome => ({ kind: 'pixels', pixels, destination: location }));
  }

  /**
   * The Location a visitor is sent to: the destination (the app link of the visitor's system, or the one the rules
   * pick), with the visitor's query merged in, then the link's UTM parameters, which win over both.
   */
  private location(link: VisitLink, destination: string, query: string): string {
    if (query === '') return link.locations.get(destination) ?? locationUrl(destination);
    const merged = mergeQuery(destination, query);
    return locationUrl(link.utm === '' ? merged : mergeQuery(merged, link.utm));
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

  private passwordForm(
    visited: Visited,
    visit: VisitRequest,
    error: 'passwordWrong' | 'passwordFirst' | null,
  ): VisitOutcome {
    const form = { action: `/${visited.link.alias}/password`, query: visit.query, referrer: visit.referrer };
    return { kind: 'password-form', form, leads: this.leadsTo(visited, visit), error };
  }

  private consentForm(visited: Visited, visit: VisitRequest, token: string): VisitOutcome {
    const form = {
      action: `/${visited.link.alias}/sensitive-consent`,
      query: visit.query,
      referrer: visit.referrer,
    };
    return { kind: 'consent', form, token, leads: this.leadsTo(visited, visit) };
  }
}
