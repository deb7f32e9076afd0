import type { StatsDimension } from '../../stats/dto/stats-query.dto';
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
  type SourceSummary,
} from './source';
import { connectOnFirstUse, type SourceConnector, type SourceHttp } from './source-http';
import { countryTotals, hourTotals, positiveCounts, titleField } from './source-mapping';

/*
 * Kutt's API v2 (`/api/v2`, key in `X-API-KEY`), read as an import source: links by `skip` and `limit`, each with
 * its stats.
 *
 * History. Kutt keeps no visit one by one: its stats are four windows counted back from the moment it made them
 * (`updatedAt`): the last 24 hours by hour, the last 7 and 30 days by day, the last 12 months by month, each with its
 * totals by browser, OS, country and referrer, never split by day. The rollups are made so that our stats over the
 * whole history, and over the last day, week and month, answer what Kutt answers for those windows:
 * - clicks: the last 24 hours hour by hour; the 29 days before day by day (each at its day's 00:00 UTC); the rest of
 *   the year month by month, on the middle day of each month's window (the month that overlaps the 30 days less
 *   what they hold);
 * - dimensions: the windows nest, so each window's totals less the next smaller window's go on the most recent day
 *   with clicks of that stretch. Whole-history totals by dimension are then Kutt's lastYear totals, the last week's
 *   its lastWeek totals, and so on. Continents come from the countries; Kutt records no device nor language.
 * - visits older than a year are in `visit_count`, where the link's counter starts, but in no window: no day gets
 *   them, as none of Kutt's stats shows them.
 */

/** Links a page; each brings its stats, one request more. */
const LINKS_PER_PAGE = 50;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Where a period starts when the link's creation is not before its expiry. */
const EPOCH = new Date(0);

/** Kutt's browsers (lower case) as ours; its `other` is no browser of ours. */
const BROWSERS: Readonly<Record<string, string>> = {
  chrome: 'Chrome',
  edge: 'Edge',
  firefox: 'Firefox',
  ie: 'Internet Explorer',
  opera: 'Opera',
  safari: 'Safari',
};

/** Kutt's systems as ours; `mac os` is how Kutt wrote macOS before it wrote `macos`. */
const SYSTEMS: Readonly<Record<string, string>> = {
  android: 'Android',
  ios: 'iOS',
  linux: 'Linux',
  macos: 'OS X',
  'mac os': 'OS X',
  windows: 'Windows',
};

interface KuttLink {
  /** A UUID. */
  id: string;
  address: string;
  target: string;
  description?: string | null;
  /** Null: Kutt's default domain. */
  domain?: string | null;
  password?: boolean;
  expire_in?: string | null;
  visit_count?: number;
  created_at?: string;
  banned?: boolean;
}

interface KuttLinks {
  data?: KuttLink[];
  total?: number;
}

interface KuttCount {
  name: string;
  value: number;
}

interface KuttWindow {
  stats?: { browser?: KuttCount[]; os?: KuttCount[]; country?: KuttCount[]; referrer?: KuttCount[] };
  views?: number[];
}

interface KuttStats {
  lastDay?: KuttWindow;
  lastWeek?: KuttWindow;
  lastMonth?: KuttWindow;
  lastYear?: KuttWindow;
  updatedAt?: string;
}

/** Clicks of a stretch of time, put at one moment of it (milliseconds since the epoch). */
interface Placed {
  at: number;
  clicks: number;
}

/** Clicks by dimension and value, keyed by both. */
type Counts = Map<string, { dimension: StatsDimension; value: string; clicks: number }>;

/** Reads a Kutt server at `options.url` with the API key `options.apiKey`. */
export function kuttSource(options: { url: string; apiKey: string }, connect: SourceConnector): ImportSource {
  const http = connectOnFirstUse(connect, options.url, 'the Kutt URL', { 'x-api-key': options.apiKey });

  return {
    async open(): Promise<SourceSummary> {
      const first = await linksPage(http(), 0, 1);
      return { linksTotal: first.total ?? null, spaces: [], domains: [], pixels: [] };
    },

    async page(cursor: string | null): Promise<SourcePage> {
      const skip = cursor === null ? 0 : skipOfCursor(cursor);
      const answer = await linksPage(http(), skip, LINKS_PER_PAGE);
      const data = answer.data ?? [];
      const links: SourceLink[] = [];
      for (const link of data) {
        const stats = await http().json<KuttStats>(`api/v2/links/${encodeURIComponent(link.id)}/stats`);
        links.push(linkOf(link, rollupsOf(stats ?? {}, new Date())));
      }
      const next = skip + data.length;
      const more =
        data.length > 0 && (answer.total === undefined ? data.length >= LINKS_PER_PAGE : next < answer.total);
      return {
        links,
        next: more ? JSON.stringify({ skip: next }) : null,
        errors: data.flatMap(itemErrorsOf),
      };
    },

    close: () => Promise.resolve(),
  };
}

function skipOfCursor(cursor: string): number {
  return cursorOf(cursor, 'Kutt', ({ skip }) => (isCount(skip, 0) ? skip : null));
}

async function linksPage(http: SourceHttp, skip: number, limit: number): Promise<KuttLinks> {
  const answer = await http.json<KuttLinks>('api/v2/links', { skip, limit });
  if (!Array.isArray(answer?.data)) {
    throw new SourceError('the source does not answer as Kutt does: is it a Kutt server?');
  }
  return answer;
}

function linkOf(link: KuttLink, history: SourceRollups): SourceLink {
  const createdAt = dateOf(link.created_at);
  return {
    sourceId: link.id,
    fields: fieldsOf(link, createdAt),
    domain: link.domain ? { name: link.domain } : null,
    space: null,
    pixels: [],
    tags: [],
    // Kutt keeps a visitor password as a hash and answers only whether there is one.
    unreadableSecrets: link.password ? ['redirect_password'] : [],
    createdAt,
    clicks: link.visit_count ?? 0,
    history,
  };
}

function fieldsOf(link: KuttLink, createdAt: Date | null): SourceLinkFields {
  const expiresAt = dateOf(link.expire_in);
  const start = createdAt !== null && expiresAt !== null && createdAt < expiresAt ? createdAt : EPOCH;
  return {
    url: link.target,
    alias: link.address,
    // Kutt's description is what it shows under a link, where we show its title.
    ...titleField(link.description),
    ...(expiresAt === null
      ? {}
      : { active_period_start_at: start.toISOString(), active_period_end_at: expiresAt.toISOString() }),
  };
}

function itemErrorsOf(link: KuttLink): SourceItemError[] {
  if (link.banned !== true) return [];
  return [{ item: link.address, message: 'Kutt had banned this link; it is imported as any other' }];
}

/** The rollups that answer Kutt's windows (see the top of this file). */
function rollupsOf(stats: KuttStats, answeredAt: Date): SourceRollups {
  const now = dateOf(stats.updatedAt)?.getTime() ?? answeredAt.getTime();
  const stretches = clickStretches(stats, now);
  return { hours: hourTotals(stretches.flat()), days: dimensionDays(stats, stretches, now) };
}

/** The clicks of the stretches the windows set apart: the last day, the rest of the week, of the month, of the year. */
function clickStretches(stats: KuttStats, now: number): Placed[][] {
  // lastDay.views[i]: the visits (23 - i) hours back, between that many and one more.
  const lastDay = viewsOf(stats.lastDay, 24).map((clicks, index) => ({
    at: startOfHour(now - (23 - index + 0.5) * HOUR_MS),
    clicks,
  }));
  // lastMonth.views[i]: the visits (29 - i) days back; the 0th day is lastDay's, told hour by hour above.
  const days = viewsOf(stats.lastMonth, 30).map((clicks, index) => ({ back: 29 - index, clicks }));
  const placeDay = ({ back, clicks }: { back: number; clicks: number }) => ({
    at: startOfDay(now - (back + 0.5) * DAY_MS),
    clicks,
  });
  const restOfWeek = days.filter(({ back }) => back >= 1 && back < 7).map(placeDay);
  const restOfMonth = days.filter(({ back }) => back >= 7).map(placeDay);
  const monthTotal = days.reduce((sum, { clicks }) => sum + clicks, 0);
  return [lastDay, restOfWeek, restOfMonth, restOfYear(stats, now, monthTotal)];
}

/** The year's months less the 30 days lastMonth holds, each on the middle day of its window. */
function restOfYear(stats: KuttStats, now: number, monthTotal: number): Placed[] {
  // months[m]: the visits m months back (lastYear.views[11 - m]).
  const months = viewsOf(stats.lastYear, 12).reverse();
  const thirtyDaysBack = now - 30 * DAY_MS;
  const placed: Placed[] = [];
  // Month 0 and the 30 days overlap: month 0 holds more where the month is longer than 30 days (those visits lie
  // between a month and 30 days back); the 30 days hold more where it is shorter (those are month 1's).
  const beyond = months[0] - monthTotal;
  if (beyond > 0)
    placed.push({ at: startOfDay((monthsBefore(now, 1) + thirtyDaysBack) / 2), clicks: beyond });
  else months[1] = Math.max(0, months[1] + beyond);
  for (let back = 1; back < 12; back += 1) {
    const middle = (monthsBefore(now, back + 1) + monthsBefore(now, back)) / 2;
    placed.push({ at: startOfDay(middle), clicks: months[back] });
  }
  return placed;
}

function viewsOf(window: KuttWindow | undefined, length: number): number[] {
  const views = Array.isArray(window?.views) ? window.views : [];
  // Kutt's arrays have a fixed length, the newest last; a shorter one is aligned on its newest entry.
  const aligned = views.slice(-length);
  return [...new Array<number>(length - aligned.length).fill(0), ...aligned].map((clicks) =>
    Number.isFinite(clicks) && clicks > 0 ? Math.floor(clicks) : 0,
  );
}

/** Each stretch's totals by dimension (its window's less the smaller window's), on its newest day with clicks. */
function dimensionDays(stats: KuttStats, stretches: Placed[][], now: number): SourceRollups['days'] {
  const windows = [stats.lastDay, stats.lastWeek, stats.lastMonth, stats.lastYear].map(countsOf);
  const rows: SourceRollups['days'] = [];
  windows.forEach((counts, index) => {
    const day = dayOf(newestAt(stretches[index]) ?? now);
    for (const [key, { dimension, value, clicks }] of counts) {
      const difference = clicks - (index === 0 ? 0 : (windows[index - 1].get(key)?.clicks ?? 0));
      if (difference > 0) rows.push({ dimension, day, value, clicks: difference });
    }
  });
  return rows;
}

/** The newest moment with clicks of a stretch, or its newest moment at all. */
function newestAt(placed: Placed[]): number | null {
  const withClicks = placed.filter(({ clicks }) => clicks > 0);
  const candidates = (withClicks.length > 0 ? withClicks : placed).map(({ at }) => at);
  return candidates.length === 0 ? null : Math.max(...candidates);
}

/** A window's totals as our values: Kutt writes names in lower case, `other`, `unknown` and `direct` for none. */
function countsOf(window: KuttWindow | undefined): Counts {
  const counts: Counts = new Map();
  const add = (dimension: StatsDimension, value: string | null | undefined, clicks: number) => {
    if (!value || !Number.isFinite(clicks) || clicks <= 0) return;
    const key = `${dimension}\u0000${value}`;
    const known = counts.get(key);
    if (known === undefined) counts.set(key, { dimension, value, clicks: Math.floor(clicks) });
    else known.clicks += Math.floor(clicks);
  };
  const stats = window?.stats ?? {};
  for (const { name, value } of stats.browser ?? [])
    add('browser', BROWSERS[String(name).toLowerCase()], value);
  for (const { name, value } of stats.os ?? [])
    add('operating_system', SYSTEMS[String(name).toLowerCase()], value);
  const countries = positiveCounts(
    (stats.country ?? []).map(({ name, value }) => ({ value: name, clicks: value })),
  );
  for (const { dimension, value, clicks } of countryTotals(countries)) add(dimension, value, clicks);
  for (const { name, value } of stats.referrer ?? []) {
    const host = String(name).toLowerCase();
    if (host !== 'direct' && host !== 'unknown') add('referrer', host.slice(0, 255), value);
  }
  return counts;
}

/** `months` calendar months before `at` (UTC), the day kept where the month has it, else its last day. */
function monthsBefore(at: number, months: number): number {
  const date = new Date(at);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

function startOfHour(at: number): number {
  return Math.floor(at / HOUR_MS) * HOUR_MS;
}

function startOfDay(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Kutt answers dates as ISO 8601, or (on SQLite) `YYYY-MM-DD hh:mm:ss` in UTC without a zone. */
function dateOf(text: string | null | undefined): Date | null {
  if (!text) return null;
  const zoneless = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const date = new Date(zoneless ? `${text.replace(' ', 'T')}Z` : text);
  return Number.isNaN(date.getTime()) ? null : date;
}
