import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { ClickWriter } from '../clicks/click-writer';
import { assignRequestId, givenRequestId, requestIdOf } from '../common/logger';
import { serverConfig, visitsConfig, type ServerConfig, type VisitsConfig } from '../config/app-config';
import { DomainsService } from '../domains/domains.service';
import { LinkCache, type VisitLink } from '../links/link-cache';
import { MetricsService, type RedirectOutcome, type RequestSeries } from '../metrics/metrics.service';
import { isReservedAlias } from '../links/reserved-aliases';
import { GeoIp } from '../targeting/geoip';
import { asksNotToBeTracked, profileVisitor, type VisitorProfile } from '../targeting/visitor';
import { locationUrl } from '../common/url-rules';
import { mergeQuery, visitorQueryFits } from './destination';
import { Pages } from './pages';
import { destinationOf, firstStep, isCounted, rotates, VisitStep } from './visit-plan';
import { VisitorRateLimit } from './visitor-rate-limit.guard';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type TrustProxy = (address: string, hop: number) => boolean;

/** The route label of what the fast path answers in the request metrics: the routes' own pattern for it. */
const ROUTE = '/:alias';

/** `/{alias}` and nothing else: one path segment of the alias alphabet. */
const ALIAS_PATH = /^\/([A-Za-z0-9_-]{1,255})$/;

/** The most addresses a hop's trust decisions are remembered for: a flood of new ones replaces them. */
const TRUST_MEMO_SIZE = 10_000;

/**
 * The same decisions as `trust`, remembered per hop and address: proxy-addr asks for each hop of every request that
 * came through a proxy, and each answer parses the address again.
 */
export function rememberedTrust(trust: TrustProxy): TrustProxy {
  const hops: Map<string, boolean>[] = [];
  return (address, hop) => {
    let memo = hops[hop];
    if (memo === undefined) {
      // A request through more proxies than any deployment has: asked each time, not remembered.
      if (hop >= 8) return trust(address, hop);
      memo = hops[hop] = new Map<string, boolean>();
    }
    let trusted = memo.get(address);
    if (trusted === undefined) {
      trusted = trust(address, hop);
      if (memo.size >= TRUST_MEMO_SIZE) memo.clear();
      memo.set(address, trusted);
    }
    return trusted;
  };
}

/** Whether the fast path answers a visit of the link: no password, consent or pixels, inside its period. */
function isLeanVisit(link: VisitLink): boolean {
  return !link.hasPixels && firstStep(link, null) === VisitStep.Visit;
}

/**
 * The redirect's fast path, in front of Express on the same HTTP server and with the same providers: a visit that
 * ends in a plain redirect (no password, consent or pixels, inside its period) is answered here, with the visit
 * plan the routes use, the cached link, the batched click writer and no middleware. Every other request, and
 * every case it cannot answer completely (unknown alias, expired, over a limit, an error), goes to Express
 * untouched, where the routes answer it as before.
 */
@Injectable()
export class LeanRedirect {
  private readonly logger = new Logger(LeanRedirect.name);
  private readonly logEach: boolean;
  /** The request series of the usual answer, a GET redirected, kept rather than looked up each time. */
  private readonly redirected: RequestSeries;

  constructor(
    private readonly domains: DomainsService,
    private readonly links: LinkCache,
    private readonly clicks: ClickWriter,
    private readonly geoip: GeoIp,
    private readonly limit: VisitorRateLimit,
    private readonly metrics: MetricsService,
    private readonly pages: Pages,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
    @Inject(serverConfig.KEY) server: ServerConfig,
  ) {
    // No line per redirect unless the operator asks for debug logs.
    this.logEach = server.logLevel === 'debug' || server.logLevel === 'trace';
    this.redirected = metrics.requestSeries('GET', ROUTE, config.redirectStatus);
  }

  /** Puts the fast path in front of the server's request listener (Express). */
  install(server: Server, trustProxy: TrustProxy): void {
    const trust = rememberedTrust(trustProxy);
    const listeners = server.listeners('request') as Handler[];
    if (listeners.length !== 1) throw new Error(`Expected one request listener, found ${listeners.length}`);
    const [routes] = listeners;
    server.removeAllListeners('request');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!this.take(request, response, routes, trust)) routes(request, response);
    });
  }

  /** Whether the request is one the fast path may answer; if so, it answers it or hands it on. */
  private take(
    request: IncomingMessage,
    response: ServerResponse,
    routes: Handler,
    trust: TrustProxy,
  ): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const started = process.hrtime.bigint();
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    const match = ALIAS_PATH.exec(mark === -1 ? url : url.slice(0, mark));
    if (match === null || isReservedAlias(match[1])) return false;
    const alias = match[1];
    const query = mark === -1 ? '' : url.slice(mark + 1);
    if (!visitorQueryFits(query)) return false;
    // Everything in memory (the usual case): answered in this turn, unless the visitor limit must ask the shared
    // store or the click waits for its claim.
    const domain = this.domains.cachedForHost(request.headers.host);
    const cached = domain === undefined ? undefined : this.links.peek(domain.id, alias);
    if (cached === undefined) {
      this.settle(this.serve(request, response, alias, query, trust, started), request, response, routes);
      return true;
    }
    // Not a plain redirect: the routes answer it, and count it against the visitor limit themselves.
    if (cached === null || !isLeanVisit(cached)) return false;
    const address = proxyAddr(request, trust);
    const wait = this.limit.enabled ? this.limit.hit(address) : 0;
    if (wait instanceof Promise) {
      const answered = wait.then(
        (left) => left === 0 && this.answer(request, response, cached, query, address, started),
      );
      this.settle(answered, request, response, routes);
      return true;
    }
    // Over the limit: the routes count it too, and answer with the 429 page.
    if (wait > 0) return false;
    const answered = this.answer(request, response, cached, query, address, started);
    if (answered === false) return false;
    if (answered === true) return true;
    this.settle(answered, request, response, routes);
    return true;
  }

  /** Hands the request to the routes when the fast path did not answer it, or failed to. */
  private settle(
    answered: Promise<boolean>,
    request: IncomingMessage,
    response: ServerResponse,
    routes: Handler,
  ) {
    answered.then(
      (done) => {
        if (!done) routes(request, response);
      },
      (error: unknown) => {
        // The routes answer it as they answer any failure (a 503 when the database is away).
        this.logger.debug(`Handed on after ${String(error)}`);
        if (!response.headersSent) routes(request, response);
      },
    );
  }

  private async serve(
    request: IncomingMessage,
    response: ServerResponse,
    alias: string,
    query: string,
    trust: TrustProxy,
    started: bigint,
  ): Promise<boolean> {
    const domain = await this.domains.forHost(request.headers.host);
    const link = await this.links.get(domain.id, alias);
    if (link === null || !isLeanVisit(link)) return false;
    const address = proxyAddr(request, trust);
    // Over the limit: the routes count it too, and answer with the 429 page.
    if (this.limit.enabled && (await this.limit.hit(address)) > 0) return false;
    return this.answer(request, response, link, query, address, started);
  }

  /**
   * The visit of a plain link in memory, let through by the visitor limit: false when the routes must answer it
   * after all, else true once answered; a promise when the click waits for its claim.
   */
  private answer(
    request: IncomingMessage,
    response: ServerResponse,
    link: VisitLink,
    query: string,
    address: string,
    started: bigint,
  ): boolean | Promise<boolean> {
    if (link.exhausted) return this.expired(request, response, link, started);
    const visitor = profileVisitor(
      {
        userAgent: request.headers['user-agent'],
        acceptLanguage: request.headers['accept-language'],
        referer: request.headers.referer,
        place: this.geoip.locate(address),
        doNotTrack: asksNotToBeTracked(request.headers),
      },
      this.config,
    );
    if (!isCounted(visitor, request.method))
      return this.redirect(request, response, link, visitor, null, query, started, 'bot');
    const counted = this.clicks.count(
      { id: link.id, clicksLimit: link.clicksLimit, rotates: rotates(link) },
      visitor,
    );
    if (!(counted instanceof Promise))
      return this.redirect(request, response, link, visitor, counted.rotation, query, started, 'redirected');
    return counted.then((click) => {
      if (click !== null)
        return this.redirect(request, response, link, visitor, click.rotation, query, started, 'redirected');
      // Refused (the limit reached, or the link changed): the routes answer this one from the database; the
      // next visits are answered as expired here, until the link changes and leaves the cache.
      if (link.clicksLimit !== null && link.clicksLimit > 0) link.exhausted = true;
      return false;
    });
  }

  /** What the routes answer for an expired link: its expiration_url, or the 410 page. */
  private expired(
    request: IncomingMessage,
    response: ServerResponse,
    link: VisitLink,
    started: bigint,
  ): true {
    assignRequestId(request, response);
    if (link.expirationUrl !== null) {
      response.writeHead(302, {
        Location: locationUrl(link.expirationUrl),
        'Cache-Control': 'private, no-store',
      });
      response.end();
      this.answered(request, 302, 'expired', started);
      return true;
    }
    // Made once per language, then served from memory.
    const page = this.pages.expiredPage(request.headers['accept-language']);
    response.writeHead(410, page.headers);
    response.end(request.method === 'HEAD' ? undefined : page.body);
    this.answered(request, 410, 'expired', started);
    return true;
  }

  /** The metrics of an answer of the fast path: the visit's outcome, and the request as the routes count theirs. */
  private answered(
    request: IncomingMessage,
    status: number,
    outcome: RedirectOutcome,
    started: bigint,
  ): void {
    this.metrics.redirect(outcome);
    if (request.method === 'GET' && status === this.config.redirectStatus) {
      this.metrics.record(this.redirected, started);
    } else {
      this.metrics.observe(request.method ?? 'GET', ROUTE, status, started);
    }
  }

  private redirect(
    request: IncomingMessage,
    response: ServerResponse,
    link: VisitLink,
    visitor: VisitorProfile,
    rotation: number | null,
    query: string,
    started: bigint,
    outcome: RedirectOutcome,
  ): true {
    const destination = destinationOf(link, visitor, rotation);
    const location =
      query === ''
        ? (link.locations.get(destination) ?? locationUrl(destination))
        : locationUrl(mergeQuery(destination, query));
    const status = this.config.redirectStatus;
    const headers: OutgoingHttpHeaders = {
      Location: location,
      'Cache-Control': 'private, no-store',
      'Content-Length': 0,
    };
    // A request id is for finding the request's log line: a redirect has one only at debug level, so it carries the
    // caller's id (a proxy's, say) and gets a new one only when it is logged.
    const id = this.logEach ? requestIdOf(request) : givenRequestId(request);
    if (id !== undefined) headers['X-Request-Id'] = id;
    response.writeHead(status, headers);
    response.end();
    this.answered(request, status, outcome, started);
    if (this.logEach) this.logger.debug(`${request.method} ${request.url} ${status} ${id}`);
    return true;
  }
}
