import { continentOf, isCountryCode, TargetsType } from '../../targeting/allowed-values';
import { agentOf } from '../../targeting/visitor';
import {
  cursorOf,
  isCount,
  SourceError,
  type ImportSource,
  type SourceClick,
  type SourceItemError,
  type SourceLink,
  type SourceLinkFields,
  type SourcePage,
  type SourceSummary,
} from './source';
import { connectOnFirstUse, type SourceConnector, type SourceHttp } from './source-http';
import { titleField } from './source-mapping';

/*
 * Shlink's REST API v3 (`/rest/v3`, key in `X-Api-Key`), read as an import source: short URLs page by page, each
 * with its visits one by one, mapped as a live visit is (browser, OS and device by our own User-Agent reading).
 */

/** Short URLs a page: each brings all its visits, so a page stays a modest amount of work and memory. */
const LINKS_PER_PAGE = 25;
/** Visits a request: bounded answers, however many visits a short URL has. */
const VISITS_PER_REQUEST = 1000;
/** The end of a period Shlink leaves open (`validSince` without `validUntil`): our periods need both ends. */
const OPEN_END = new Date('9999-12-31T23:59:00Z');
/** Where a period starts that Shlink only ends, when the short URL's creation is not before its end. */
const EPOCH = new Date(0);
/** Shlink's desktop is "neither mobile nor tablet": every desktop system of ours (Linux takes Ubuntu too). */
const DESKTOP_SYSTEMS = ['Windows', 'OS X', 'Linux', 'Chrome OS'];

/** Some of a link's create fields, spread into the rest. */
type FieldsPart = Record<string, unknown>;

interface ShlinkPagination {
  currentPage?: number;
  pagesCount?: number;
  totalItems?: number;
}

interface ShlinkShortUrl {
  shortCode: string;
  longUrl: string;
  title?: string | null;
  /** Null: Shlink's default domain. */
  domain?: string | null;
  tags?: string[];
  dateCreated?: string;
  meta?: { validSince?: string | null; validUntil?: string | null; maxVisits?: number | null };
  visitsSummary?: { total?: number; nonBots?: number; bots?: number };
  /** Before Shlink 3.4, in place of `visitsSummary`. */
  visitsCount?: number;
  deviceLongUrls?: { android?: string | null; ios?: string | null; desktop?: string | null };
  crawlable?: boolean;
  forwardQuery?: boolean;
}

interface ShlinkVisit {
  referer?: string | null;
  date: string;
  userAgent?: string | null;
  visitLocation?: { countryCode?: string | null; cityName?: string | null } | null;
  potentialBot?: boolean;
}

interface ShlinkShortUrls {
  shortUrls?: { data?: ShlinkShortUrl[]; pagination?: ShlinkPagination };
}

interface ShlinkVisits {
  visits?: { data?: ShlinkVisit[]; pagination?: ShlinkPagination };
}

/** Reads a Shlink server at `options.url` with the API key `options.apiKey`. */
export function shlinkSource(
  options: { url: string; apiKey: string },
  connect: SourceConnector,
): ImportSource {
  const http = connectOnFirstUse(connect, options.url, 'the Shlink URL', { 'x-api-key': options.apiKey });

  return {
    async open(): Promise<SourceSummary> {
      const first = await shortUrlsPage(http(), 1, 1);
      return { linksTotal: first.pagination?.totalItems ?? null, spaces: [], domains: [], pixels: [] };
    },

    async page(cursor: string | null): Promise<SourcePage> {
      const page = cursor === null ? 1 : pageOfCursor(cursor);
      const answer = await shortUrlsPage(http(), page, LINKS_PER_PAGE);
      const links: SourceLink[] = [];
      const errors: SourceItemError[] = [];
      for (const shortUrl of answer.data ?? []) {
        links.push(linkOf(shortUrl, await visitsOf(http(), shortUrl)));
        errors.push(...itemErrorsOf(shortUrl));
      }
      const more = (answer.data?.length ?? 0) > 0 && page < (answer.pagination?.pagesCount ?? 0);
      return { links, next: more ? JSON.stringify({ page: page + 1 }) : null, errors };
    },

    close: () => Promise.resolve(),
  };
}

function pageOfCursor(cursor: string): number {
  return cursorOf(cursor, 'Shlink', ({ page }) => (isCount(page, 1) ? page : null));
}

async function shortUrlsPage(
  http: SourceHttp,
  page: number,
  itemsPerPage: number,
): Promise<NonNullable<ShlinkShortUrls['shortUrls']>> {
  const answer = await http.json<ShlinkShortUrls>('rest/v3/short-urls', { page, itemsPerPage });
  if (!Array.isArray(answer?.shortUrls?.data)) {
    throw new SourceError('the source does not answer as Shlink does: is it a Shlink server?');
  }
  return answer.shortUrls;
}

/** Every visit of a short URL a person made, page by page. */
async function visitsOf(http: SourceHttp, shortUrl: ShlinkShortUrl): Promise<SourceClick[]> {
  const path = `rest/v3/short-urls/${encodeURIComponent(shortUrl.shortCode)}/visits`;
  const domain: Record<string, string> = shortUrl.domain ? { domain: shortUrl.domain } : {};
  const clicks: SourceClick[] = [];
  for (let page = 1, pages = 1; page <= pages; page += 1) {
    const answer = await http.json<ShlinkVisits>(path, { ...domain, page, itemsPerPage: VISITS_PER_REQUEST });
    const visits = answer?.visits?.data;
    if (!Array.isArray(visits))
      throw new SourceError(`the source answered ${path} with something other than visits`);
    if (visits.length === 0) break;
    pages = answer.visits?.pagination?.pagesCount ?? page;
    // We never count bots: a visit Shlink took for one is left out, as a live bot visit would be.
    for (const visit of visits) if (visit.potentialBot !== true) pushClick(clicks, visit);
  }
  return clicks;
}

function pushClick(clicks: SourceClick[], visit: ShlinkVisit): void {
  const at = new Date(visit.date);
  if (Number.isNaN(at.getTime())) return;
  const agent = agentOf(visit.userAgent ?? '');
  const country = countryOf(visit.visitLocation?.countryCode);
  clicks.push({
    at,
    referrer: refererHost(visit.referer),
    country,
    city: visit.visitLocation?.cityName || null,
    continent: country === null ? null : continentOf(country),
    browser: agent.browser,
    operating_system: agent.os,
    device: agent.device,
    // Shlink keeps no Accept-Language.
    language: null,
  });
}

function countryOf(code: string | null | undefined): string | null {
  const upper = code?.toUpperCase() ?? '';
  return isCountryCode(upper) ? upper : null;
}

/** A referer as a live visit keeps it: the host of an http(s) URL, nothing else. */
function refererHost(referer: string | null | undefined): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.slice(0, 255) : null;
  } catch {
    return null;
  }
}

function linkOf(shortUrl: ShlinkShortUrl, clicks: SourceClick[]): SourceLink {
  const createdAt = dateOf(shortUrl.dateCreated);
  const summary = shortUrl.visitsSummary;
  return {
    // A short code is unique within its domain only.
    sourceId: shortUrl.domain ? `${shortUrl.domain}/${shortUrl.shortCode}` : shortUrl.shortCode,
    fields: fieldsOf(shortUrl, createdAt),
    domain: shortUrl.domain ? { name: shortUrl.domain } : null,
    space: null,
    pixels: [],
    tags: shortUrl.tags ?? [],
    unreadableSecrets: [],
    createdAt,
    // Bots are not in the history, so the counter starts from the visits that are.
    clicks: summary?.nonBots ?? summary?.total ?? shortUrl.visitsCount ?? clicks.length,
    history: clicks,
  };
}

function fieldsOf(shortUrl: ShlinkShortUrl, createdAt: Date | null): SourceLinkFields {
  const maxVisits = shortUrl.meta?.maxVisits;
  return {
    url: shortUrl.longUrl,
    alias: shortUrl.shortCode,
    ...titleField(shortUrl.title),
    ...periodOf(dateOf(shortUrl.meta?.validSince), dateOf(shortUrl.meta?.validUntil), createdAt),
    ...(maxVisits ? { clicks_limit: maxVisits } : {}),
    ...targetingOf(shortUrl.deviceLongUrls ?? {}),
  };
}

/** Shlink may give either end alone; ours takes both or none, so the missing end is made open. */
function periodOf(since: Date | null, until: Date | null, createdAt: Date | null): FieldsPart {
  if (since === null && until === null) return {};
  const start = since ?? (createdAt !== null && until !== null && createdAt < until ? createdAt : EPOCH);
  return {
    active_period_start_at: start.toISOString(),
    active_period_end_at: (until ?? OPEN_END).toISOString(),
  };
}

/**
 * Shlink's device URLs as targeting. Its `android` and `ios` are operating systems (an Android tablet gets the
 * android URL), which our device keys (Mobile, Tablet) cannot tell apart: so targeting by operating system, with
 * the desktop URL on every desktop system. A desktop URL alone is Shlink's "not mobile, not tablet": our Desktop.
 */
function targetingOf(urls: NonNullable<ShlinkShortUrl['deviceLongUrls']>): FieldsPart {
  const { android, ios, desktop } = urls;
  if (!android && !ios) {
    return desktop
      ? { targets_type: TargetsType.Devices, targets: [{ key: 'Desktop', value: desktop }] }
      : {};
  }
  const targets = [
    ...(android ? [{ key: 'Android', value: android }] : []),
    ...(ios ? [{ key: 'iOS', value: ios }] : []),
    ...(desktop ? DESKTOP_SYSTEMS.map((key) => ({ key, value: desktop })) : []),
  ];
  return { targets_type: TargetsType.OperatingSystems, targets };
}

/** What Shlink does that this service does not, said in the import's errors rather than silently dropped. */
function itemErrorsOf(shortUrl: ShlinkShortUrl): SourceItemError[] {
  // Our redirect always merges the visitor's query into the destination; `crawlable` has no equivalent to lose.
  if (shortUrl.forwardQuery !== false) return [];
  return [
    {
      item: shortUrl.domain ? `${shortUrl.domain}/${shortUrl.shortCode}` : shortUrl.shortCode,
      message: 'Shlink did not forward query parameters for this link; this service always does',
    },
  ];
}

function dateOf(text: string | null | undefined): Date | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}
