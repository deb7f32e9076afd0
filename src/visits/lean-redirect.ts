import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import proxyAddr from 'proxy-addr';
import { assignRequestId, givenRequestId, requestIdOf } from '../common/logger';
import { serverConfig, visitsConfig, type ServerConfig, type VisitsConfig } from '../config/app-config';
import { ALIAS_PATH } from '../links/alias';
import { isReservedAlias } from '../links/reserved-aliases';
import { MetricsService, type RequestSeries } from '../metrics/metrics.service';
import { VisitorRateLimit } from './limits/visitor-rate-limit.guard';
import { visitorQueryFits } from '../common/query-string';
import { OutcomeWriter } from './outcome-writer';
import type { VisitOutcome, VisitRequest } from './visit';
import type { VisitLink } from '../links/link-cache';
import { VisitPipeline, type Resolved } from './visit-pipeline';
import type { ValueOrPromise } from '../common/value-or-promise';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type TrustProxy = (address: string, hop: number) => boolean;

/** The route label of what the fast path answers in the request metrics: the routes' own pattern for it. */
const ROUTE = '/:alias';

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

const NO_FORM: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The redirect's fast path, in front of Express on the same HTTP server: a visit that ends in a plain redirect (no
 * password, consent or pixels) is answered here, by the visit pipeline and the outcome writer the routes use, with
 * no middleware. Every other request, and every case it cannot answer completely (unknown alias, a page, over the
 * visitor limit, an error), goes to Express untouched, where the routes answer it with the same two pieces.
 */
@Injectable()
export class LeanRedirect {
  private readonly logger = new Logger(LeanRedirect.name);
  private readonly logEach: boolean;
  /** The request series of the usual answer, a GET redirected, kept rather than looked up each time. */
  private readonly redirected: RequestSeries;

  constructor(
    private readonly pipeline: VisitPipeline,
    private readonly writer: OutcomeWriter,
    private readonly limit: VisitorRateLimit,
    private readonly metrics: MetricsService,
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
      let taken: boolean;
      try {
        taken = this.take(request, response, routes, trust);
      } catch (error) {
        // A failure in this turn (the click buffer full, say) is answered by the routes, never left to end the process.
        this.logger.debug(`Handed on after ${String(error)}`);
        taken = response.headersSent;
      }
      if (!taken) routes(request, response);
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
    const query = mark === -1 ? '' : url.slice(mark + 1);
    // Too long: the routes answer it with their page.
    if (!visitorQueryFits(query)) return false;
    // Everything in memory (the usual case): answered in this turn, unless the visitor limit must ask the shared
    // store or the click waits for its claim.
    const found = this.pipeline.resolve(request.headers.host, match[1]);
    const answered =
      found instanceof Promise
        ? found.then((read) => this.answer(request, response, read, query, trust, started))
        : this.answer(request, response, found, query, trust, started);
    if (answered === false) return false;
    if (answered !== true) this.settle(answered, request, response, routes);
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

  /** The visit of a plain link, let through by the visitor limit: false when the routes must answer it. */
  private answer(
    request: IncomingMessage,
    response: ServerResponse,
    found: Resolved,
    query: string,
    trust: TrustProxy,
    started: bigint,
  ): ValueOrPromise<boolean> {
    // Not a plain redirect: the routes answer it, and count it against the visitor limit themselves.
    const { link } = found;
    if (link === null || !this.pipeline.isPlain(link)) return false;
    const address = proxyAddr(request, trust);
    const wait = this.limit.enabled ? this.limit.hit(address) : 0;
    if (wait instanceof Promise) {
      return wait.then((left) => left === 0 && this.visit(request, response, link, query, address, started));
    }
    // Over the limit: the routes count it too, and answer with the 429 page.
    if (wait > 0) return false;
    return this.visit(request, response, link, query, address, started);
  }

  private visit(
    request: IncomingMessage,
    response: ServerResponse,
    link: VisitLink,
    query: string,
    address: string,
    started: bigint,
  ): ValueOrPromise<true> {
    const visit: VisitRequest = {
      method: request.method ?? 'GET',
      headers: request.headers,
      address,
      query,
      referrer: request.headers.referer ?? '',
      form: NO_FORM,
    };
    const outcome = this.pipeline.plainVisit(link, visit);
    if (!(outcome instanceof Promise)) return this.write(request, response, outcome, started);
    return outcome.then((ready) => this.write(request, response, ready, started));
  }

  /** Writes the outcome, with what the routes' middleware would add: the request id and the request metrics. */
  private write(
    request: IncomingMessage,
    response: ServerResponse,
    outcome: VisitOutcome,
    started: bigint,
  ): true {
    if (outcome.kind === 'redirect') {
      // A request id is for finding the request's log line: a redirect has one only at debug level, so it carries
      // the caller's id (a proxy's, say) and gets a new one only when it is logged.
      const id = this.logEach ? requestIdOf(request) : givenRequestId(request);
      if (id !== undefined) response.setHeader('X-Request-Id', id);
    } else {
      assignRequestId(request, response);
    }
    this.writer.write(request, response, outcome);
    const status = response.statusCode;
    if (request.method === 'GET' && status === this.config.redirectStatus) {
      this.metrics.record(this.redirected, started);
    } else {
      this.metrics.observe(request.method ?? 'GET', ROUTE, status, started);
    }
    if (this.logEach) this.logger.debug(`${request.method} ${request.url} ${status} ${requestIdOf(request)}`);
    return true;
  }
}
