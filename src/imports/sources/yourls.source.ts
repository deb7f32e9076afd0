import { continentOf } from '../../targeting/allowed-values';
import { agentOf } from '../../targeting/visitor';
import {
  type ImportSource,
  type SourceClick,
  type SourceLink,
  type SourcePage,
  type SourceSummary,
} from './source';
import {
  YourlsTables,
  type YourlsConnectOptions,
  type YourlsLogRow,
  type YourlsUrlRow,
} from './yourls.repository';

export interface YourlsOptions {
  /** `mysql://user:password@host:port/database`. */
  databaseUrl: string;
  /** The tables' prefix, `yourls_` by default: letters, digits and `_` only (the DTO checks it). */
  tablePrefix: string;
}

const PER_PAGE = 100;

/**
 * A YOURLS installation, read from its MySQL or MariaDB tables (`url` and `log`, with their prefix) through a
 * read-only session: links a hundred at a time in keyword order (the cursor is the last keyword), and each link's
 * visits one by one from the log, profiled as a live visit is (the user agent read by the same parser, the
 * referrer reduced to its host, the continent from the country). YOURLS knows one domain, which its database does
 * not name: its links land on the workspace's default domain. Times are read as UTC, as YOURLS writes them.
 */
export function yourlsSource(options: YourlsOptions, connectOptions: YourlsConnectOptions): ImportSource {
  let tables: YourlsTables | null = null;

  return {
    async open(): Promise<SourceSummary> {
      tables = await YourlsTables.open(options.databaseUrl, options.tablePrefix, connectOptions);
      return { linksTotal: await tables.countUrls(), spaces: [], domains: [], pixels: [] };
    },

    async page(cursor: string | null): Promise<SourcePage> {
      const rows = await tables!.urls(cursor === null ? null : (JSON.parse(cursor) as string), PER_PAGE);
      const visits = new Map<string, SourceClick[]>();
      for (const row of await tables!.visits(rows.map((url) => url.keyword))) {
        const click = toClick(row);
        if (click === null) continue;
        const list = visits.get(row.shorturl) ?? [];
        list.push(click);
        visits.set(row.shorturl, list);
      }
      const links = rows.map((row) => toSourceLink(row, visits.get(row.keyword) ?? []));
      const last = rows.at(-1);
      return {
        links,
        next: rows.length < PER_PAGE || last === undefined ? null : JSON.stringify(last.keyword),
        errors: [],
      };
    },

    async close(): Promise<void> {
      await tables?.close();
      tables = null;
    },
  };
}

function toSourceLink(row: YourlsUrlRow, clicks: SourceClick[]): SourceLink {
  return {
    sourceId: row.keyword,
    fields: { url: row.url, alias: row.keyword, title: row.title === '' ? null : row.title },
    domain: null,
    space: null,
    pixels: [],
    tags: [],
    unreadableSecrets: [],
    createdAt: row.timestamp === null ? null : utc(row.timestamp),
    clicks: Math.max(Number(row.clicks), clicks.length),
    history: clicks,
  };
}

/** A logged visit as a click; bots are not counted here, as live visits are not. */
function toClick(row: YourlsLogRow): SourceClick | null {
  const agent = agentOf(row.user_agent ?? '');
  if (agent.bot) return null;
  const country =
    row.country_code !== null && /^[A-Za-z]{2}$/.test(row.country_code)
      ? row.country_code.toUpperCase()
      : null;
  return {
    at: utc(row.click_time),
    referrer: referrerHost(row.referrer),
    country,
    city: null,
    continent: country === null ? null : continentOf(country),
    browser: agent.browser,
    operating_system: agent.os,
    device: agent.device,
    language: null,
  };
}

/** YOURLS writes `direct` when there was none. */
function referrerHost(referrer: string | null): string | null {
  if (referrer === null || referrer === '' || referrer === 'direct') return null;
  try {
    return new URL(referrer).hostname || null;
  } catch {
    return null;
  }
}

function utc(dateTime: string): Date {
  return new Date(`${dateTime.replace(' ', 'T')}Z`);
}
