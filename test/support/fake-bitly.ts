/**
 * A stand-in for Bitly's API v4 (https://api-ssl.bitly.com/v4), a third party the tests cannot reach from here.
 * Written from Bitly's published OpenAPI document for v4.0.0 (dev.bitly.com, as kept in
 * github.com/ballerina-platform/openapi-connectors, APIs/bitly/4.0.0/openapi.yml: `/groups`,
 * `/groups/{group_guid}/bitlinks`, `/bitlinks/{bitlink}/clicks`, `/countries`, `/referring_domains` and the schemas
 * Groups, Bitlinks, Pagination, Clicks, ClickMetrics; the paths kept in test/fixtures/openapi/bitly.json). It serves a
 * given data set on 127.0.0.1, pages bitlinks by `page` as the document says (or by Bitly's later `search_after`,
 * which it does not have, when asked), refuses any other bearer token with a 403, answers 402 for the metrics of a
 * bitlink whose plan has none, and can answer the next request once with a 429 and Retry-After, or with a body that
 * is not JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeApi, sendJson as send } from './fake-api';

export interface FakeBitlyGroup {
  guid: string;
  name: string;
  bsds?: string[];
}

export interface FakeBitlink {
  /** The guid of its group. */
  group: string;
  /** `bit.ly/abc`, `brand.co/launch`. */
  id: string;
  long_url: string;
  created_at: string;
  title?: string;
  tags?: string[];
  custom_bitlinks?: string[];
  /** Clicks per day, `YYYY-MM-DD`. */
  clicks?: { day: string; clicks: number }[];
  countries?: { value: string; clicks: number }[];
  referringDomains?: { value: string; clicks: number }[];
  /** Its metrics are not in the plan: 402. */
  metricsRefused?: boolean;
}

interface FakeBitlyOptions {
  token: string;
  groups: FakeBitlyGroup[];
  bitlinks: FakeBitlink[];
  /** How bitlinks are paged: by page number, as the document says, or by `search_after`. */
  paging?: 'page' | 'search_after';
}

export class FakeBitly extends FakeApi<FakeBitlyOptions> {
  private constructor(options: FakeBitlyOptions) {
    super(options, {
      tooManyRequests: { message: 'RATE_LIMIT_EXCEEDED', resource: 'bitlinks' },
      malformed: '{"groups": [{"guid": ',
    });
  }

  static start(options: FakeBitlyOptions): Promise<FakeBitly> {
    return FakeApi.serve(new FakeBitly(options));
  }

  protected answer(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const { options } = this;
    if (request.headers.authorization !== `Bearer ${options.token}`) {
      return send(response, 403, {
        message: 'FORBIDDEN',
        description: 'You are currently forbidden to access this resource.',
      });
    }
    if (url.pathname === '/v4/groups') {
      const groups = options.groups.map((group) => ({
        ...group,
        bsds: group.bsds ?? [],
        is_active: true,
        role: 'org-admin',
      }));
      return send(response, 200, { groups });
    }
    const bitlinks = /^\/v4\/groups\/([^/]+)\/bitlinks$/.exec(url.pathname);
    if (bitlinks !== null) return this.bitlinks(response, options, decodeURIComponent(bitlinks[1]), url);
    const metrics = /^\/v4\/bitlinks\/(.+)\/(clicks|countries|referring_domains)$/.exec(url.pathname);
    const bitlink = options.bitlinks.find((item) => item.id === decodeURIComponent(metrics?.[1] ?? ''));
    if (metrics === null || bitlink === undefined) return send(response, 404, { message: 'NOT_FOUND' });
    if (bitlink.metricsRefused === true) {
      return send(response, 402, { message: 'UPGRADE_REQUIRED', description: 'Your plan has no metrics.' });
    }
    const reference = { unit: url.searchParams.get('unit'), units: Number(url.searchParams.get('units')) };
    if (metrics[2] === 'clicks') {
      // Newest first, as Bitly answers.
      const linkClicks = [...(bitlink.clicks ?? [])]
        .sort((a, b) => b.day.localeCompare(a.day))
        .map(({ day, clicks }) => ({ clicks, date: `${day}T00:00:00+0000` }));
      return send(response, 200, {
        ...reference,
        unit_reference: '2026-01-01T00:00:00+0000',
        link_clicks: linkClicks,
      });
    }
    const size = Number(url.searchParams.get('size') ?? 50) || 50;
    const rows = (metrics[2] === 'countries' ? bitlink.countries : bitlink.referringDomains) ?? [];
    send(response, 200, { ...reference, facet: metrics[2], metrics: rows.slice(0, size) });
  }

  private bitlinks(response: ServerResponse, options: FakeBitlyOptions, group: string, url: URL): void {
    if (!options.groups.some((item) => item.guid === group))
      return send(response, 404, { message: 'NOT_FOUND' });
    const all = options.bitlinks.filter((bitlink) => bitlink.group === group);
    const size = Math.min(100, Math.max(1, Number(url.searchParams.get('size') ?? 50) || 50));
    const after = url.searchParams.get('search_after');
    const start =
      options.paging === 'search_after'
        ? after === null
          ? 0
          : Number(Buffer.from(after, 'base64url').toString('utf8'))
        : (Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1) - 1) * size;
    const links = all.slice(start, start + size).map(bitlinkBody);
    const more = start + size < all.length;
    const page = Math.floor(start / size) + 1;
    const nextUrl = new URL(`/v4/groups/${group}/bitlinks`, this.url);
    nextUrl.searchParams.set('size', String(size));
    const searchAfter = Buffer.from(String(start + size)).toString('base64url');
    if (options.paging === 'search_after') nextUrl.searchParams.set('search_after', searchAfter);
    else nextUrl.searchParams.set('page', String(page + 1));
    send(response, 200, {
      links,
      pagination: {
        prev: '',
        next: more ? nextUrl.href : '',
        size,
        page,
        total: all.length,
        ...(options.paging === 'search_after' ? { search_after: more ? searchAfter : '' } : {}),
      },
    });
  }
}

/** A bitlink as Bitly answers it (BitlinkBody). */
function bitlinkBody(bitlink: FakeBitlink): object {
  return {
    id: bitlink.id,
    link: `https://${bitlink.id}`,
    long_url: bitlink.long_url,
    title: bitlink.title ?? null,
    created_at: bitlink.created_at,
    archived: false,
    tags: bitlink.tags ?? [],
    custom_bitlinks: bitlink.custom_bitlinks ?? [],
    deeplinks: [],
    references: { group: `https://api-ssl.bitly.com/v4/groups/${bitlink.group}` },
  };
}
