/**
 * A stand-in for a Kutt server (https://kutt.it), a third party the tests cannot reach from here. Written from
 * Kutt's OpenAPI document (github.com/thedevs-network/kutt, docs/api/api.js: `/links`, `/links/{id}/stats`,
 * `/health` and the schemas Link, Stats, StatsItem; the paths kept in test/fixtures/openapi/kutt.json), with the
 * stats windows counted as Kutt's server counts them (server/queries/visit.queries.js and server/utils/utils.js:
 * 24 hours, 7 and 30 days, 12 months back from the answer's moment, names in lower case). It serves a given data set
 * on 127.0.0.1, pages by `skip` and `limit`, refuses any other `X-API-KEY`, and can answer the next request once
 * with a 429 and Retry-After, or with a body that is not JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeApi, sendJson as send } from './fake-api';

/** A visit as Kutt records it: its browser, OS, country and referrer in Kutt's own words. */
export interface FakeKuttVisit {
  at: string;
  /** chrome, edge, firefox, ie, opera, safari or other. */
  browser: string;
  /** android, ios, linux, macos, windows or other. */
  os: string;
  /** A country code, or `unknown`. */
  country: string;
  /** A host, or `direct`. */
  referrer: string;
}

export interface FakeKuttLink {
  id: string;
  address: string;
  target: string;
  created_at: string;
  description?: string | null;
  /** Null or absent: the default domain. */
  domain?: string | null;
  password?: boolean;
  expire_in?: string | null;
  banned?: boolean;
  visits?: FakeKuttVisit[];
}

type Facet = 'browser' | 'os' | 'country' | 'referrer';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Kutt's windows: their length, the unit of their views, and how far back they reach. */
const WINDOWS = {
  lastDay: {
    length: 24,
    back: (now: number, at: number) => Math.trunc((now - at) / HOUR_MS),
    from: (now: number) => now - DAY_MS,
  },
  lastWeek: { length: 7, back: daysBack, from: (now: number) => now - 7 * DAY_MS },
  lastMonth: { length: 30, back: daysBack, from: (now: number) => now - 30 * DAY_MS },
  lastYear: { length: 12, back: monthsBack, from: (now: number) => monthsBefore(now, 12) },
};

export class FakeKutt extends FakeApi<{ apiKey: string; links: FakeKuttLink[]; now: Date }> {
  private constructor(options: { apiKey: string; links: FakeKuttLink[]; now: Date }) {
    super(options, { tooManyRequests: { error: 'Too many requests.' }, malformed: '<html>Kutt</html>' });
  }

  /** `now` is the moment Kutt counts its windows back from. */
  static start(options: { apiKey: string; links: FakeKuttLink[]; now: Date }): Promise<FakeKutt> {
    return FakeApi.serve(new FakeKutt(options));
  }

  protected answer(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const { options } = this;
    if (url.pathname === '/api/v2/health') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return void response.end('OK');
    }
    if (request.headers['x-api-key'] !== options.apiKey)
      return send(response, 401, { error: 'Unauthorized' });
    if (url.pathname === '/api/v2/links') return this.list(response, options.links, url);
    const stats = /^\/api\/v2\/links\/([^/]+)\/stats$/.exec(url.pathname);
    const link = options.links.find((item) => item.id === decodeURIComponent(stats?.[1] ?? ''));
    if (link === undefined) return send(response, 404, { error: 'Link could not be found.' });
    send(response, 200, { ...statsOf(link.visits ?? [], options.now.getTime()), ...linkBody(link) });
  }

  private list(response: ServerResponse, links: FakeKuttLink[], url: URL): void {
    const limit = Math.max(1, Number(url.searchParams.get('limit') ?? 10) || 10);
    const skip = Math.max(0, Number(url.searchParams.get('skip') ?? 0) || 0);
    send(response, 200, {
      limit,
      skip,
      total: links.length,
      data: links.slice(skip, skip + limit).map(linkBody),
    });
  }
}

function linkBody(link: FakeKuttLink): object {
  return {
    id: link.id,
    address: link.address,
    banned: link.banned ?? false,
    created_at: link.created_at,
    updated_at: link.created_at,
    description: link.description ?? null,
    expire_in: link.expire_in ?? null,
    link: `https://${link.domain ?? 'kutt.test'}/${link.address}`,
    password: link.password ?? false,
    target: link.target,
    visit_count: (link.visits ?? []).length,
    domain: link.domain ?? null,
  };
}

/** The four windows as Kutt answers them, counted back from `now`. */
function statsOf(visits: FakeKuttVisit[], now: number): object {
  const windows = Object.fromEntries(
    Object.entries(WINDOWS).map(([name, window]) => {
      const views = new Array<number>(window.length).fill(0);
      const counts: Record<Facet, Record<string, number>> = {
        browser: { chrome: 0, edge: 0, firefox: 0, ie: 0, opera: 0, other: 0, safari: 0 },
        os: { android: 0, ios: 0, linux: 0, macos: 0, other: 0, windows: 0 },
        country: {},
        referrer: {},
      };
      for (const visit of visits) {
        const at = Date.parse(visit.at);
        if (at <= window.from(now) || at > now) continue;
        views[window.length - window.back(now, at) - 1] += 1;
        for (const facet of ['browser', 'os', 'country', 'referrer'] as const) {
          const value = visit[facet].toLowerCase();
          counts[facet][value] = (counts[facet][value] ?? 0) + 1;
        }
      }
      const stats = Object.fromEntries(
        Object.entries(counts).map(([facet, values]) => [
          facet,
          Object.entries(values)
            .map(([name, value]) => ({ name, value }))
            .sort((a, b) => b.value - a.value),
        ]),
      );
      return [name, { stats, views, total: views.reduce((sum, count) => sum + count, 0) }];
    }),
  );
  return { ...windows, updatedAt: new Date(now).toISOString() };
}

function daysBack(now: number, at: number): number {
  return Math.trunc((now - at) / DAY_MS);
}

/** Whole calendar months between `at` and `now`, as date-fns' differenceInMonths counts them (in UTC). */
function monthsBack(now: number, at: number): number {
  let months = 0;
  while (monthsBefore(now, months + 1) >= at) months += 1;
  return months;
}

function monthsBefore(at: number, months: number): number {
  const date = new Date(at);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}
