import {
  cursorOf,
  isCount,
  SourceError,
  type ImportSource,
  type SourceItemError,
  type SourceLink,
  type SourceLinkFields,
  type SourcePage,
  type SourceRollups,
  type SourceSpace,
  type SourceSummary,
} from './source';
import { connectOnFirstUse, type SourceConnector, type SourceHttp } from './source-http';
import {
  countryTotals,
  hourTotals,
  positiveCounts,
  titleField,
  type DimensionTotal,
  type ValueCount,
} from './source-mapping';

/*
 * Bitly's API v4 (bearer token), read as an import source: its groups become spaces, their bitlinks are read group
 * after group, each with its clicks.
 *
 * History. Bitly answers a bitlink's clicks per day (`/clicks`, `unit=day&units=-1`: its whole life), each put at its
 * day's 00:00 UTC; and its clicks by country and by referring domain as totals only, never split by day. Those totals
 * go on the bitlink's most recent day with clicks, so that stats over its whole history answer Bitly's totals
 * (continents come from the countries). A plan that does not give a bitlink's metrics (402 or 403) does not stop the
 * import: the link comes without history, and the import's errors say so.
 *
 * Custom back-halves. A bitlink (`bit.ly/2Xyz`) may have custom bitlinks (`https://brand.co/launch`): other short
 * URLs of the same destination. Each becomes a link of its own (source id `bit.ly/2Xyz#brand.co/launch`), with the
 * bitlink's fields, space and tags but no history: Bitly counts their clicks on the bitlink, where they stay.
 */

const BITLY_API = 'https://api-ssl.bitly.com';
/** Bitly's largest page of bitlinks. */
const LINKS_PER_PAGE = 100;
/** Countries or referring domains a bitlink: Bitly's default is 50, and what falls beyond the page is lost. */
const METRICS_SIZE = 100;
const DAY_MS = 86_400_000;
/** Bitly's own short domains: their links land on our default domain. */
const BITLY_HOSTS = new Set(['bit.ly', 'j.mp', 'bitly.com']);
/** Bitly answers these for metrics a plan does not include. */
const METRICS_REFUSED = new Set([402, 403]);

interface BitlyGroup {
  guid: string;
  name: string;
  /** The group's branded short domains. */
  bsds?: string[];
}

interface BitlyLink {
  /** The domain and back-half: `bit.ly/2Xyz`, `brand.co/launch`. */
  id: string;
  long_url: string;
  title?: string | null;
  tags?: string[];
  created_at?: string;
  /** Full URLs of the same destination on branded domains. */
  custom_bitlinks?: string[];
}

interface BitlyPagination {
  total?: number;
  page?: number;
  /** The URL of the next page; empty on the last. */
  next?: string;
  /** Where the next page starts, where Bitly pages by it rather than by number. */
  search_after?: string;
}

interface BitlyLinks {
  links?: BitlyLink[];
  pagination?: BitlyPagination;
}

interface BitlyClicks {
  link_clicks?: { date: string; clicks: number }[];
}

interface BitlyMetrics {
  metrics?: ValueCount[];
}

/** Where a page of bitlinks starts: a group and a page number, or what Bitly said to search after. */
type Position = { group: string; page: number } | { group: string; after: string };

/** Metrics the plan does not include. */
const REFUSED = Symbol('refused');

/** Reads Bitly (or `options.url`, a server that speaks its API) with the access token `options.accessToken`. */
export function bitlySource(
  options: { accessToken: string; url?: string },
  connect: SourceConnector,
): ImportSource {
  const http = connectOnFirstUse(connect, options.url ?? BITLY_API, 'the Bitly API URL', {
    authorization: `Bearer ${options.accessToken}`,
  });
  let groups: BitlyGroup[] | null = null;
  const groupList = async (): Promise<BitlyGroup[]> => (groups ??= await readGroups(http()));

  return {
    async open(): Promise<SourceSummary> {
      const all = await groupList();
      let linksTotal: number | null = 0;
      for (const group of all) {
        const total = (await bitlinksPage(http(), { group: group.guid, page: 1 }, 1)).pagination?.total;
        linksTotal = linksTotal === null || total === undefined ? null : linksTotal + total;
      }
      const domains = [...new Set(all.flatMap((group) => group.bsds ?? []))].filter(
        (name) => !BITLY_HOSTS.has(name),
      );
      return { linksTotal, spaces: all.map(spaceOf), domains: domains.map((name) => ({ name })), pixels: [] };
    },

    async page(cursor: string | null): Promise<SourcePage> {
      const all = await groupList();
      if (all.length === 0) return { links: [], next: null, errors: [] };
      const position = cursor === null ? { group: all[0].guid, page: 1 } : positionOfCursor(cursor);
      const index = all.findIndex((group) => group.guid === position.group);
      if (index < 0)
        throw new SourceError('the Bitly group the import stopped in is gone: start the import again');
      const answer = await bitlinksPage(http(), position, LINKS_PER_PAGE);
      const links: SourceLink[] = [];
      const errors: SourceItemError[] = [];
      for (const bitlink of answer.links ?? []) {
        const { history, clicks, error } = await historyOf(http(), bitlink);
        if (error !== null) errors.push({ item: bitlink.id, message: error });
        links.push(...linksOf(bitlink, spaceOf(all[index]), history, clicks));
      }
      const next =
        nextInGroup(position, answer) ??
        (index + 1 < all.length ? { group: all[index + 1].guid, page: 1 } : null);
      return { links, next: next === null ? null : JSON.stringify(next), errors };
    },

    close: () => Promise.resolve(),
  };
}

function positionOfCursor(cursor: string): Position {
  return cursorOf(cursor, 'Bitly', ({ group, page, after }) => {
    if (typeof group !== 'string') return null;
    if (typeof after === 'string') return { group, after };
    return isCount(page, 1) ? { group, page } : null;
  });
}

async function readGroups(http: SourceHttp): Promise<BitlyGroup[]> {
  const answer = await http.json<{ groups?: BitlyGroup[] }>('v4/groups');
  if (!Array.isArray(answer?.groups)) {
    throw new SourceError('the source does not answer as Bitly does: is it the Bitly API?');
  }
  return answer.groups;
}

function spaceOf(group: BitlyGroup): SourceSpace {
  return { name: group.name };
}

async function bitlinksPage(http: SourceHttp, position: Position, size: number): Promise<BitlyLinks> {
  const from: Record<string, string | number> =
    'after' in position ? { search_after: position.after } : { page: position.page };
  const answer = await http.json<BitlyLinks>(`v4/groups/${encodeURIComponent(position.group)}/bitlinks`, {
    size,
    ...from,
  });
  if (!Array.isArray(answer?.links)) {
    throw new SourceError('the source does not answer as Bitly does: is it the Bitly API?');
  }
  return answer;
}

/** The next page of the same group, or null past its last. */
function nextInGroup(position: Position, answer: BitlyLinks): Position | null {
  const next = answer.pagination?.next;
  if ((answer.links ?? []).length === 0 || !next) return null;
  const after = answer.pagination?.search_after || searchParamOf(next, 'search_after');
  if (after) return { group: position.group, after };
  return { group: position.group, page: 'page' in position ? position.page + 1 : 2 };
}

function searchParamOf(url: string, name: string): string | null {
  try {
    return new URL(url).searchParams.get(name);
  } catch {
    return null;
  }
}

/** A bitlink's clicks by day, and by country and referrer on its last day with clicks. */
async function historyOf(
  http: SourceHttp,
  bitlink: BitlyLink,
): Promise<{ history: SourceRollups | null; clicks: number; error: string | null }> {
  const base = `v4/bitlinks/${bitlink.id.split('/').map(encodeURIComponent).join('/')}`;
  const perDay = await metrics<BitlyClicks>(http, `${base}/clicks`, { unit: 'day', units: -1 });
  if (perDay === REFUSED) {
    return {
      history: null,
      clicks: 0,
      error: 'Bitly does not give this link’s clicks on this plan: imported without history',
    };
  }
  const hours = dayTotals(perDay.link_clicks ?? []);
  const clicks = hours.reduce((sum, { clicks: day }) => sum + day, 0);
  if (clicks === 0) return { history: { hours, days: [] }, clicks, error: null };
  const lastDay = hours[hours.length - 1].hour.toISOString().slice(0, 10);
  const totals = { unit: 'day', units: -1, size: METRICS_SIZE };
  const countries = await metrics<BitlyMetrics>(http, `${base}/countries`, totals);
  const referrers = await metrics<BitlyMetrics>(http, `${base}/referring_domains`, totals);
  const refused = countries === REFUSED || referrers === REFUSED;
  const days = [
    ...(countries === REFUSED ? [] : countryTotals(positiveCounts(countries.metrics ?? []))),
    ...(referrers === REFUSED ? [] : referrerTotals(referrers.metrics ?? [])),
  ].map((total) => ({ ...total, day: lastDay }));
  const error = refused
    ? 'Bitly does not give this link’s countries or referrers on this plan: imported with its clicks per day only'
    : null;
  return { history: { hours, days }, clicks, error };
}

/** The JSON of a metrics request, or REFUSED where the plan does not include it. */
async function metrics<T>(
  http: SourceHttp,
  path: string,
  query: Record<string, string | number>,
): Promise<T | typeof REFUSED> {
  const answer = await http.get(path, query);
  if (METRICS_REFUSED.has(answer.status)) return REFUSED;
  if (answer.status < 200 || answer.status > 299)
    throw new SourceError(`the source answered ${answer.status}`);
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    throw new SourceError(`the source answered ${path} with something other than JSON`);
  }
}

/** Each day's clicks at its 00:00 UTC, oldest first; days without clicks left out. */
function dayTotals(days: { date: string; clicks: number }[]): SourceRollups['hours'] {
  return hourTotals(
    days.flatMap(({ date, clicks }) => {
      const at = new Date(date).getTime();
      if (Number.isNaN(at) || !Number.isFinite(clicks)) return [];
      return [{ at: Math.floor(at / DAY_MS) * DAY_MS, clicks: Math.floor(clicks) }];
    }),
  );
}

/** Bitly's `direct` is a visit without a referrer: none is recorded for it. */
function referrerTotals(metricsRows: ValueCount[]): DimensionTotal[] {
  return positiveCounts(metricsRows)
    .map(({ value, clicks }) => ({ value: String(value).toLowerCase().slice(0, 255), clicks }))
    .filter(({ value }) => value !== '' && value !== 'direct')
    .map(({ value, clicks }) => ({ dimension: 'referrer', value, clicks }));
}

/** The bitlink as a link, and each of its custom back-halves as a link of its own. */
function linksOf(
  bitlink: BitlyLink,
  space: SourceSpace,
  history: SourceRollups | null,
  clicks: number,
): SourceLink[] {
  const [host, ...back] = bitlink.id.split('/');
  const own = `${host.toLowerCase()}/${back.join('/')}`;
  const main = linkAt(bitlink, bitlink.id, host, back.join('/'), space, history, clicks);
  const custom = (bitlink.custom_bitlinks ?? [])
    .map(customBackHalf)
    .filter((found): found is { host: string; alias: string } => found !== null)
    .filter(({ host: other, alias }) => `${other}/${alias}` !== own)
    .map(({ host: other, alias }) =>
      linkAt(bitlink, `${bitlink.id}#${other}/${alias}`, other, alias, space, null, 0),
    );
  return [main, ...custom];
}

function customBackHalf(url: string): { host: string; alias: string } | null {
  try {
    const parsed = new URL(url);
    const alias = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    return alias === '' ? null : { host: parsed.hostname.toLowerCase(), alias };
  } catch {
    return null;
  }
}

function linkAt(
  bitlink: BitlyLink,
  sourceId: string,
  host: string,
  alias: string,
  space: SourceSpace,
  history: SourceRollups | null,
  clicks: number,
): SourceLink {
  const createdAt = bitlink.created_at ? new Date(bitlink.created_at) : null;
  return {
    sourceId,
    fields: fieldsOf(bitlink, alias),
    domain: BITLY_HOSTS.has(host.toLowerCase()) ? null : { name: host.toLowerCase() },
    space,
    pixels: [],
    tags: bitlink.tags ?? [],
    unreadableSecrets: [],
    createdAt: createdAt === null || Number.isNaN(createdAt.getTime()) ? null : createdAt,
    clicks,
    history,
  };
}

function fieldsOf(bitlink: BitlyLink, alias: string): SourceLinkFields {
  return { url: bitlink.long_url, alias, ...titleField(bitlink.title) };
}
