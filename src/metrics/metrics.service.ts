import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import { ConnectionPool, type PooledClient } from '../database/connection-pool';
import { TallyCounter, TallyHistogram, type HistogramSeries } from './tally';

/** What a visit of a short link ended in. */
export const REDIRECT_OUTCOMES = [
  'redirected',
  'expired',
  'password',
  'consent',
  'not_found',
  'bot',
] as const;
export type RedirectOutcome = (typeof REDIRECT_OUTCOMES)[number];

/** The route label of requests that matched no route: their paths are the client's, not a bounded set. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Seconds: from a cached redirect (well under a millisecond) to a request that waited on a timeout. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const TIMED = Symbol('timed');

interface TimedClient extends PooledClient {
  [TIMED]?: true;
}

/** The counter and the latency histogram of one method, route pattern and status. */
export interface RequestSeries {
  count: { value: number };
  time: HistogramSeries;
}

/**
 * The service's Prometheus metrics, in a registry of its own: requests by route and status, redirects by outcome,
 * clicks written and buffered, the database pool and query latency, and Node's process metrics. Label values come from bounded
 * sets (route patterns, statuses, outcomes), never from what a client sends.
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();
  // Requests and visits are counted on every answer, the redirect's included: in plain numbers (see tally.ts).
  private readonly requests = new TallyCounter(
    'http_requests_total',
    'HTTP requests answered, by method, route pattern and status.',
  );
  private readonly durations = new TallyHistogram(
    'http_request_duration_seconds',
    'Time from a request to its answer, by method, route pattern and status.',
    HTTP_BUCKETS,
  );
  private readonly redirects = new TallyCounter(
    'shortlink_redirects_total',
    'Visits of short links, by outcome.',
  );
  private readonly clicks = new Counter({
    name: 'shortlink_clicks_written_total',
    help: 'Click rows committed to the database.',
    registers: [this.registry],
  });
  private readonly queries = new Histogram({
    name: 'db_query_duration_seconds',
    help: 'Time from sending a statement to the database to its answer.',
    buckets: QUERY_BUCKETS,
    registers: [this.registry],
  });
  /** The counter and histogram series of each request's labels: a request costs one Map lookup and arithmetic. */
  private readonly series = new Map<string, RequestSeries>();
  /** The series of each outcome, made once. */
  private readonly outcomes = new Map(
    REDIRECT_OUTCOMES.map((outcome) => [outcome, this.redirects.series$(outcome, { outcome })] as const),
  );

  constructor(private readonly connections: ConnectionPool) {
    collectDefaultMetrics({ register: this.registry });
    for (const metric of [this.requests, this.durations, this.redirects]) {
      this.registry.registerMetric(metric as unknown as Metric);
    }
    this.clicks.inc(0);
  }

  onModuleInit(): void {
    const pool = this.connections.stats();
    if (pool === null) return;
    const stats = pool;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of the database pool, by state.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.labels('in_use').set(stats.totalCount - stats.idleCount);
        this.labels('idle').set(stats.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a connection of the pool.',
      registers: [this.registry],
      collect() {
        this.set(stats.waitingCount);
      },
    });
    // Each connection the pool hands out has its promise-returning queries timed (wrapped once).
    pool.on?.('acquire', (client: TimedClient) => {
      if (client[TIMED] === true) return;
      client[TIMED] = true;
      const query = client.query.bind(client);
      client.query = (...args: unknown[]) => {
        const result = query(...args);
        if (result instanceof Promise) {
          const end = this.queries.startTimer();
          result.then(
            () => end(),
            () => end(),
          );
        }
        return result;
      };
    });
  }

  /**
   * The click buffer: the clicks held and not yet known to be written, read at scrape time, and its size
   * (`CLICK_BUFFER_MAX`), past which visits of links without a limit are answered 503.
   */
  clickBuffer(pending: () => number, max: number): void {
    new Gauge({
      name: 'shortlink_clicks_buffered',
      help: 'Clicks held in memory and not yet known to be written to the database.',
      registers: [this.registry],
      collect() {
        this.set(pending());
      },
    });
    new Gauge({
      name: 'shortlink_clicks_buffer_max',
      help: 'The most clicks the buffer holds (CLICK_BUFFER_MAX); past it, visits are answered 503.',
      registers: [this.registry],
    }).set(max);
  }

  /** Records a visit's outcome. */
  redirect(outcome: RedirectOutcome): void {
    this.outcomes.get(outcome)!.value += 1;
  }

  clicksWritten(count: number): void {
    if (count > 0) this.clicks.inc(count);
  }

  /** Records an answered request once it is sent; `route` is the route's pattern, never the path itself. */
  observe(method: string, route: string, status: number, startedNs: bigint): void {
    this.record(this.requestSeries(method, route, status), startedNs);
  }

  /** The series of one method, route pattern and status: a caller that answers many alike keeps it. */
  requestSeries(method: string, route: string, status: number): RequestSeries {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.series$(key, labels), time: this.durations.series$(key, labels) };
      this.series.set(key, series);
    }
    return series;
  }

  /** Records an answered request in its series, once it is sent. */
  record(series: RequestSeries, startedNs: bigint): void {
    series.count.value += 1;
    this.durations.record(series.time, Number(process.hrtime.bigint() - startedNs) / 1e9);
  }

  /** Express middleware: every request the routes answer, labelled by the pattern of the route that answered. */
  middleware() {
    return (
      request: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string },
      response: ServerResponse,
      next: () => void,
    ): void => {
      const started = process.hrtime.bigint();
      response.once('finish', () => {
        const path = request.route?.path;
        const route = typeof path === 'string' ? `${request.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
        this.observe(request.method ?? 'GET', route, response.statusCode, started);
      });
      next();
    };
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
