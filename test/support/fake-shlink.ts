/**
 * A stand-in for a Shlink server (https://shlink.io), a third party the tests cannot reach from here. Written from
 * Shlink's OpenAPI document (github.com/shlinkio/shlink, docs/swagger: paths/v1_short-urls.json,
 * paths/v1_short-urls_{shortCode}_visits.json, paths/health.json and the definitions ShortUrl, Visit, VisitLocation,
 * Pagination, ShortUrlVisitsSummary, DeviceLongUrls; the paths kept in test/fixtures/openapi/shlink.json): the
 * endpoints an import reads, serving a given data set on 127.0.0.1, paging as the document says, refusing any other
 * `X-Api-Key`, and able to answer the next request once with a 429 and Retry-After, or with a body that is not JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeApi, sendJson } from './fake-api';

export interface FakeShlinkVisit {
  date: string;
  userAgent: string;
  /** Shlink writes an empty string where there was none. */
  referer?: string;
  countryCode?: string;
  cityName?: string;
  potentialBot?: boolean;
}

export interface FakeShlinkShortUrl {
  shortCode: string;
  longUrl: string;
  dateCreated: string;
  /** Null or absent: the default domain. */
  domain?: string | null;
  title?: string | null;
  tags?: string[];
  meta?: { validSince?: string | null; validUntil?: string | null; maxVisits?: number | null };
  deviceLongUrls?: { android?: string | null; ios?: string | null; desktop?: string | null };
  crawlable?: boolean;
  forwardQuery?: boolean;
  visits?: FakeShlinkVisit[];
}

/** Shlink's host of short URLs on the default domain. */
const DEFAULT_DOMAIN = 's.test';

export class FakeShlink extends FakeApi<{ apiKey: string; shortUrls: FakeShlinkShortUrl[] }> {
  private constructor(options: { apiKey: string; shortUrls: FakeShlinkShortUrl[] }) {
    super(options, {
      tooManyRequests: problem(429, 'Too many requests'),
      errorType: PROBLEM_TYPE,
      malformed: '{"shortUrls": {"data": [',
    });
  }

  static start(options: { apiKey: string; shortUrls: FakeShlinkShortUrl[] }): Promise<FakeShlink> {
    return FakeApi.serve(new FakeShlink(options));
  }

  protected answer(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const { options } = this;
    if (url.pathname === '/rest/health') {
      return send(response, 200, { status: 'pass', version: '3.7.0', links: { about: 'https://shlink.io' } });
    }
    if (request.headers['x-api-key'] !== options.apiKey) {
      return send(
        response,
        401,
        problem(401, 'Invalid API key', 'https://shlink.io/api/error/invalid-api-key'),
      );
    }
    const visits = /^\/rest\/v[123]\/short-urls\/([^/]+)\/visits$/.exec(url.pathname);
    if (visits !== null) return this.visits(response, options.shortUrls, decodeURIComponent(visits[1]), url);
    if (/^\/rest\/v[123]\/short-urls$/.test(url.pathname)) return this.list(response, options.shortUrls, url);
    send(response, 404, problem(404, 'Not found'));
  }

  private list(response: ServerResponse, shortUrls: FakeShlinkShortUrl[], url: URL): void {
    const { items, pagination } = paged(shortUrls, url, 10);
    send(response, 200, { shortUrls: { data: items.map(shortUrlBody), pagination } });
  }

  private visits(
    response: ServerResponse,
    shortUrls: FakeShlinkShortUrl[],
    shortCode: string,
    url: URL,
  ): void {
    const asked = url.searchParams.get('domain');
    const domain = asked === null || asked === DEFAULT_DOMAIN ? null : asked;
    const shortUrl = shortUrls.find(
      (item) => item.shortCode === shortCode && (item.domain ?? null) === domain,
    );
    if (shortUrl === undefined) {
      return send(response, 404, {
        ...problem(404, 'Short URL not found', 'https://shlink.io/api/error/short-url-not-found'),
        shortCode,
        domain,
      });
    }
    const excludeBots = url.searchParams.get('excludeBots') === 'true';
    // Newest first, as Shlink lists them.
    const all = [...(shortUrl.visits ?? [])]
      .filter((visit) => !excludeBots || visit.potentialBot !== true)
      .sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
    // Without itemsPerPage, the document says: all the items.
    const { items, pagination } = paged(all, url, Math.max(all.length, 1));
    send(response, 200, { visits: { data: items.map(visitBody), pagination } });
  }
}

function paged<T>(all: T[], url: URL, defaultSize: number): { items: T[]; pagination: object } {
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const size = Math.max(1, Number(url.searchParams.get('itemsPerPage') ?? defaultSize) || defaultSize);
  const items = all.slice((page - 1) * size, page * size);
  return {
    items,
    pagination: {
      currentPage: page,
      pagesCount: Math.ceil(all.length / size),
      itemsPerPage: size,
      itemsInCurrentPage: items.length,
      totalItems: all.length,
    },
  };
}

function shortUrlBody(shortUrl: FakeShlinkShortUrl): object {
  const visits = shortUrl.visits ?? [];
  const bots = visits.filter((visit) => visit.potentialBot === true).length;
  return {
    shortCode: shortUrl.shortCode,
    shortUrl: `https://${shortUrl.domain ?? DEFAULT_DOMAIN}/${shortUrl.shortCode}`,
    longUrl: shortUrl.longUrl,
    deviceLongUrls: { android: null, ios: null, desktop: null, ...shortUrl.deviceLongUrls },
    dateCreated: shortUrl.dateCreated,
    visitsSummary: { total: visits.length, nonBots: visits.length - bots, bots },
    tags: shortUrl.tags ?? [],
    meta: { validSince: null, validUntil: null, maxVisits: null, ...shortUrl.meta },
    domain: shortUrl.domain ?? null,
    title: shortUrl.title ?? null,
    crawlable: shortUrl.crawlable ?? false,
    forwardQuery: shortUrl.forwardQuery ?? true,
  };
}

function visitBody(visit: FakeShlinkVisit): object {
  const located = visit.countryCode !== undefined;
  return {
    referer: visit.referer ?? '',
    date: visit.date,
    userAgent: visit.userAgent,
    visitLocation: located
      ? {
          countryCode: visit.countryCode,
          countryName: visit.countryCode,
          regionName: '',
          cityName: visit.cityName ?? '',
          latitude: 0,
          longitude: 0,
          timezone: '',
        }
      : null,
    potentialBot: visit.potentialBot ?? false,
  };
}

/** Shlink's errors are RFC 7807 problem details. */
function problem(status: number, title: string, type = 'about:blank'): object {
  return { type, title, detail: title, status };
}

/** Shlink answers its errors as problem documents (RFC 7807). */
const PROBLEM_TYPE = 'application/problem+json';

function send(
  response: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, body, headers, status >= 400 ? PROBLEM_TYPE : undefined);
}
