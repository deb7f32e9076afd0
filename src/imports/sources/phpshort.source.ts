import { DEVICES } from '../../targeting/allowed-values';
import { VISITOR_DIMENSIONS } from '../../clicks/click-dimensions';
import type { StatsDimension } from '../../stats/dto/stats-query.dto';
import { LINK_VISIT_FIELD_NAMES, type LinkVisitField } from '../../links/link-visit-fields';
import type { SourceConnector, SourceHttp } from './source-http';
import {
  SourceError,
  type ImportSource,
  type SourceDomain,
  type SourceLink,
  type SourcePage,
  type SourcePixel,
  type SourceRollups,
  type SourceSpace,
  type SourceSummary,
} from './source';

/** phpShort's link, space, domain and pixel as its v1 API answers them (contract §4-7). */
interface PhpShortBaseLink {
  id: number;
  alias: string;
  url: string;
  title: string | null;
  targets_type: string | null;
  targets: { key?: string | null; value: string; weight?: number }[] | null;
  sensitive_content: number | boolean;
  privacy: number;
  password: boolean | string | null;
  redirect_password?: boolean | string | null;
  active_period_start_at: string | null;
  active_period_end_at: string | null;
  clicks_limit: number | null;
  expiration_url: string | null;
  clicks: number;
  disabled?: number | boolean;
  space: { id: number; name: string; color: number } | null;
  domain: { id: number; name: string; url?: string } | null;
  pixels: { id: number; name: string; type: string; value: string }[] | null;
  created_at: string;
}

/** A link of another instance of this service also answers the fields of contract §13; phpShort's do not. */
type PhpShortLink = PhpShortBaseLink & Partial<Record<LinkVisitField, string | null>>;

interface PhpShortList<T> {
  data: T[];
  meta: { current_page: number; last_page: number; total: number };
}

/** This service's bulk read of rollups (`GET /api/v1/stats/rollups`): a phpShort source that is another instance. */
interface RollupsAnswer {
  data: {
    link_id: number;
    hours: { hour: string; clicks: number }[];
    days: { name: StatsDimension; day: string; value: string | null; clicks: number }[];
  }[];
}

const PER_PAGE = 100;
/** phpShort answers clicks per day for ranges under 90 days. */
const DAYS_PER_WINDOW = 89;
const DAY_MS = 86_400_000;
const CANONICAL_DEVICES = new Map<string, string>(DEVICES.map((device) => [device.toLowerCase(), device]));

/**
 * A phpShort source, read through the v1 API of contract §5-7 with an API key: so a second instance of this
 * service is one. Spaces, domains and pixels come whole; links a page of 100 at a time, oldest first. Clicks:
 * from another instance of this service, its rollups as they are stored (`/stats/rollups`, every hour and every
 * day of every dimension, a request per page of links); from phpShort itself, which has no such read, its stats
 * per day (windows of 89 days) and, for each day with clicks, that day's hours and each dimension's values: exact,
 * and slow for a big history (a request per day and dimension, within the rate limit). Each page's next is read
 * while the import writes it.
 */
export function phpShortSource(
  options: { url: string; apiKey: string },
  connect: SourceConnector,
): ImportSource {
  const http = connect(new URL(options.url), { authorization: `Bearer ${options.apiKey}` });
  let defaultDomainId: number | null = null;
  let rollupsRead: boolean | null = null;
  /** The page after the last one asked for, read ahead (by number). */
  let ahead: { number: number; page: Promise<SourcePage> } | null = null;
  const sourceHost = new URL(options.url).hostname.toLowerCase();

  const domainOf = (domain: PhpShortLink['domain']): SourceDomain | null => {
    if (domain === null || domain.id === defaultDomainId || domain.name.toLowerCase() === sourceHost)
      return null;
    return { name: domain.name };
  };

  return {
    async open(): Promise<SourceSummary> {
      const account = await http.json<{ data?: { id?: number; default_domain?: number | null } }>(
        'api/v1/account',
      );
      if (typeof account.data?.id !== 'number') throw new SourceError('the source is not a phpShort API');
      defaultDomainId = account.data.default_domain ?? null;
      const [spaces, domains, pixels, links] = await Promise.all([
        everyPage<{ name: string; color: number }>(http, 'api/v1/spaces'),
        everyPage<{ id: number; name: string; index_page: string | null; not_found_page: string | null }>(
          http,
          'api/v1/domains',
        ),
        everyPage<SourcePixel>(http, 'api/v1/pixels'),
        http.json<PhpShortList<unknown>>('api/v1/links', { per_page: 10 }),
      ]);
      rollupsRead = (await http.get('api/v1/stats/rollups', { link_ids: '1' })).status !== 404;
      return {
        linksTotal: links.meta.total,
        spaces: spaces.map(({ name, color }): SourceSpace => ({ name, color })),
        domains: domains
          .filter((domain) => domainOf({ id: domain.id, name: domain.name }) !== null)
          .map((domain) => ({
            name: domain.name,
            indexPage: domain.index_page,
            notFoundPage: domain.not_found_page,
          })),
        pixels: pixels.map(({ name, type, value }) => ({ name, type, value })),
      };
    },

    async page(cursor: string | null): Promise<SourcePage> {
      const number = cursor === null ? 1 : Number(cursor);
      const read = ahead?.number === number ? ahead.page : readPage(number);
      ahead = null;
      const page = await read;
      // The next page is read while this one is written: its failure is met when it is asked for.
      if (page.next !== null) {
        ahead = { number: number + 1, page: readPage(number + 1) };
        ahead.page.catch(() => undefined);
      }
      return page;
    },

    close(): Promise<void> {
      ahead = null;
      return Promise.resolve();
    },
  };

  async function readPage(number: number): Promise<SourcePage> {
    const answer = await http.json<PhpShortList<PhpShortLink>>('api/v1/links', {
      per_page: PER_PAGE,
      page: number,
      sort_by: 'id',
      sort: 'asc',
    });
    const links = answer.data.map((link) => toSourceLink(link, domainOf(link.domain)));
    const counted = answer.data.filter((link) => link.clicks > 0);
    const histories = rollupsRead
      ? await storedRollups(
          http,
          counted.map((link) => link.id),
        )
      : await statsHistories(http, counted);
    for (const link of links) link.history = histories.get(Number(link.sourceId)) ?? null;
    return { links, next: number < answer.meta.last_page ? String(number + 1) : null, errors: [] };
  }
}

function toSourceLink(link: PhpShortLink, domain: SourceDomain | null): SourceLink {
  const secrets: SourceLink['unreadableSecrets'] = [];
  if (isSet(link.password)) secrets.push('password');
  if (isSet(link.redirect_password)) secrets.push('redirect_password');
  return {
    sourceId: String(link.id),
    fields: {
      url: link.url,
      alias: link.alias,
      title: link.title,
      targets_type: link.targets_type,
      targets: link.targets?.map(({ key, value, weight }) => ({
        key,
        value,
        ...(weight === undefined ? {} : { weight }),
      })),
      sensitive_content: flag(link.sensitive_content),
      privacy: link.privacy,
      active_period_start_at: link.active_period_start_at,
      active_period_end_at: link.active_period_end_at,
      clicks_limit: link.clicks_limit,
      expiration_url: link.expiration_url,
      disabled: flag(link.disabled ?? 0),
      // Absent from phpShort's answers: only what the source has is sent on.
      ...Object.fromEntries(
        LINK_VISIT_FIELD_NAMES.flatMap((name) => (link[name] === undefined ? [] : [[name, link[name]]])),
      ),
    },
    domain,
    space: link.space === null ? null : { name: link.space.name, color: link.space.color },
    pixels: (link.pixels ?? []).map(({ name, type, value }) => ({ name, type, value })),
    tags: [],
    unreadableSecrets: secrets,
    createdAt: new Date(link.created_at),
    clicks: link.clicks,
    history: null,
  };
}

/** phpShort answers a secret as a boolean (this service) or as the secret's presence; either way it stays hidden. */
function isSet(value: boolean | string | null | undefined): boolean {
  return value === true || (typeof value === 'string' && value !== '');
}

function flag(value: number | boolean): 0 | 1 {
  return value === true || value === 1 ? 1 : 0;
}

/** Every item of a phpShort list, 100 a page. */
async function everyPage<T>(http: SourceHttp, path: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await http.json<PhpShortList<T>>(path, { per_page: PER_PAGE, page });
    items.push(...answer.data);
    if (page >= answer.meta.last_page) return items;
  }
}

/** Another instance's rollups of the page's links, as stored. */
async function storedRollups(http: SourceHttp, ids: number[]): Promise<Map<number, SourceRollups>> {
  const histories = new Map<number, SourceRollups>();
  if (ids.length === 0) return histories;
  const answer = await http.json<RollupsAnswer>('api/v1/stats/rollups', { link_ids: ids.map(String) });
  for (const entry of answer.data) {
    histories.set(entry.link_id, {
      hours: entry.hours.map(({ hour, clicks }) => ({ hour: new Date(hour), clicks })),
      days: entry.days.map(({ name, day, value, clicks }) => ({ dimension: name, day, value, clicks })),
    });
  }
  return histories;
}

/** phpShort's own stats, read day by day where there were clicks. */
async function statsHistories(http: SourceHttp, links: PhpShortLink[]): Promise<Map<number, SourceRollups>> {
  const histories = new Map<number, SourceRollups>();
  for (const link of links) histories.set(link.id, await statsHistory(http, link));
  return histories;
}

async function statsHistory(http: SourceHttp, link: PhpShortLink): Promise<SourceRollups> {
  const history: SourceRollups = { hours: [], days: [] };
  const path = `api/v1/stats/${link.id}`;
  const today = Date.now();
  for (let from = Date.parse(link.created_at.slice(0, 10)); from <= today; from += DAYS_PER_WINDOW * DAY_MS) {
    const to = Math.min(from + (DAYS_PER_WINDOW - 1) * DAY_MS, today);
    const days = await http.json<{ data: { value: string; count: number }[] }>(path, {
      name: 'click',
      from: isoDay(from),
      to: isoDay(to),
    });
    for (const { value: day } of days.data) {
      const hours = await http.json<{ data: { value: string; count: number }[] }>(path, {
        name: 'click',
        from: day,
        to: day,
      });
      for (const { value, count } of hours.data) {
        history.hours.push({
          hour: new Date(`${value.slice(0, 10)}T${value.slice(11, 13)}:00:00Z`),
          clicks: count,
        });
      }
      for (const dimension of VISITOR_DIMENSIONS) {
        for (const { value, count } of await dayValues(http, path, dimension, day)) {
          history.days.push({ dimension, day, value: storedValue(dimension, value), clicks: count });
        }
      }
    }
  }
  return history;
}

/** Every value of a dimension on one day, page by page. */
async function dayValues(
  http: SourceHttp,
  path: string,
  dimension: StatsDimension,
  day: string,
): Promise<{ value: string | null; count: number }[]> {
  const values: { value: string | null; count: number }[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await http.json<PhpShortList<{ value: string | null; count: number }>>(path, {
      name: dimension,
      from: day,
      to: day,
      per_page: PER_PAGE,
      page,
    });
    values.push(...answer.data);
    if (page >= answer.meta.last_page) return values;
  }
}

/** A value as phpShort writes it, as clicks store it: country `GB:United Kingdom` as `GB`, devices capitalised. */
function storedValue(dimension: StatsDimension, value: string | null): string | null {
  if (value === null) return null;
  if (dimension === 'country') return value.split(':')[0];
  if (dimension === 'device') return CANONICAL_DEVICES.get(value.toLowerCase()) ?? value;
  return value;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
