import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { ClickWriter } from '../clicks/click-writer';
import { assignRequestId } from '../common/logger';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DomainsService } from '../domains/domains.service';
import { LinkCache } from '../links/link-cache';
import { isReservedAlias } from '../links/reserved-aliases';
import { GeoIp } from '../targeting/geoip';
import { profileVisitor } from '../targeting/visitor';
import { locationUrl, mergeQuery, visitorQueryFits } from './destination';
import { destinationOf, firstStep, isCounted, rotates, VisitStep } from './visit-plan';
import { VisitorRateLimit } from './visitor-rate-limit.guard';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type TrustProxy = (address: string, hop: number) => boolean;

/** `/{alias}` and nothing else: one path segment of the alias alphabet. */
const ALIAS_PATH = /^\/([A-Za-z0-9_-]{1,255})$/;

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

  constructor(
    private readonly domains: DomainsService,
    private readonly links: LinkCache,
    private readonly clicks: ClickWriter,
    private readonly geoip: GeoIp,
    private readonly limit: VisitorRateLimit,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // No line per redirect unless the operator asks for debug logs.
    this.logEach = config.logLevel === 'debug' || config.logLevel === 'trace';
  }

  /** Puts the fast path in front of the server's request listener (Express). */
  install(server: Server, trust: TrustProxy): void {
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
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    const match = ALIAS_PATH.exec(mark === -1 ? url : url.slice(0, mark));
    if (match === null || isReservedAlias(match[1])) return false;
    const query = mark === -1 ? '' : url.slice(mark + 1);
    if (!visitorQueryFits(query)) return false;
    this.serve(request, response, match[1], query, trust).then(
      (answered) => {
        if (!answered) routes(request, response);
      },
      (error: unknown) => {
        // The routes answer it as they answer any failure (a 503 when the database is away).
        this.logger.debug(`Handed on after ${String(error)}`);
        if (!response.headersSent) routes(request, response);
      },
    );
    return true;
  }

  private async serve(
    request: IncomingMessage,
    response: ServerResponse,
    alias: string,
    query: string,
    trust: TrustProxy,
  ): Promise<boolean> {
    const domain = await this.domains.forHost(request.headers.host);
    const link = await this.links.get(domain.id, alias);
    if (link === null || link.hasPixels || firstStep(link, null) !== VisitStep.Visit) return false;
    const address = proxyAddr(request, trust);
    // Over the limit: the routes count it too, and answer with the 429 page.
    if (this.limit.enabled && (await this.limit.hit(address)) > 0) return false;
    const visitor = profileVisitor({
      userAgent: request.headers['user-agent'],
      acceptLanguage: request.headers['accept-language'],
      referer: request.headers.referer,
      country: this.geoip.countryOf(address),
    });
    let rotation: number | null = null;
    if (isCounted(visitor, request.method)) {
      const counted = await this.clicks.count(
        { id: link.id, clicksLimit: link.clicksLimit, rotates: rotates(link) },
        visitor,
      );
      // The limit was reached meanwhile: the routes show the expired page (the click was not counted).
      if (counted === null) return false;
      rotation = counted.rotation;
    }
    const location = locationUrl(mergeQuery(destinationOf(link, visitor, rotation), query));
    assignRequestId(request, response);
    response.writeHead(this.config.redirectStatus, {
      Location: location,
      'Cache-Control': 'private, no-store',
    });
    response.end();
    if (this.logEach) this.logger.debug(`${request.method} /${alias} ${this.config.redirectStatus}`);
    return true;
  }
}
