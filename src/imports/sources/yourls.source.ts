import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { AddressRefusedError, checkedAddress, type AddressPolicy } from '../../common/outbound-address';
import { continentOf } from '../../targeting/allowed-values';
import { agentOf } from '../../targeting/visitor';
import {
  SourceError,
  type ImportSource,
  type SourceClick,
  type SourceLink,
  type SourcePage,
  type SourceSummary,
} from './source';

export interface YourlsOptions {
  /** `mysql://user:password@host:port/database`. */
  databaseUrl: string;
  /** The tables' prefix, `yourls_` by default: letters, digits and `_` only (the DTO checks it). */
  tablePrefix: string;
}

export interface YourlsConnectOptions extends AddressPolicy {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

interface UrlRow extends RowDataPacket {
  keyword: string;
  url: string;
  title: string | null;
  timestamp: string | null;
  clicks: number;
}

interface LogRow extends RowDataPacket {
  shorturl: string;
  click_time: string;
  referrer: string | null;
  user_agent: string | null;
  country_code: string | null;
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
  const url = `\`${options.tablePrefix}url\``;
  const log = `\`${options.tablePrefix}log\``;
  let connection: Connection | null = null;

  const query = async <T extends RowDataPacket>(sql: string, values: unknown[] = []): Promise<T[]> => {
    try {
      const [rows] = await connection!.query<T[]>({ sql, values, timeout: connectOptions.timeoutMs });
      return rows;
    } catch (error) {
      throw new SourceError(`the YOURLS database refused a read: ${mysqlReason(error)}`);
    }
  };

  return {
    async open(): Promise<SourceSummary> {
      connection = await connect(options.databaseUrl, connectOptions);
      const [{ total }] = await query<RowDataPacket & { total: number }>(
        `SELECT count(*) AS total FROM ${url}`,
      );
      return { linksTotal: Number(total), spaces: [], domains: [], pixels: [] };
    },

    async page(cursor: string | null): Promise<SourcePage> {
      const rows = await query<UrlRow>(
        `SELECT keyword, url, title, timestamp, clicks FROM ${url}
          ${cursor === null ? '' : 'WHERE keyword > ?'} ORDER BY keyword LIMIT ${PER_PAGE}`,
        cursor === null ? [] : [JSON.parse(cursor) as string],
      );
      const visits = new Map<string, SourceClick[]>();
      if (rows.length > 0) {
        const logged = await query<LogRow>(
          `SELECT shorturl, click_time, referrer, user_agent, country_code FROM ${log}
            WHERE shorturl IN (?) ORDER BY click_id`,
          [rows.map((row) => row.keyword)],
        );
        for (const row of logged) {
          const click = toClick(row);
          if (click === null) continue;
          const list = visits.get(row.shorturl) ?? [];
          list.push(click);
          visits.set(row.shorturl, list);
        }
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
      await connection?.end().catch(() => undefined);
      connection = null;
    },
  };
}

/** Connects to the database's host as the outbound address policy judged it; a read-only session. */
async function connect(databaseUrl: string, options: YourlsConnectOptions): Promise<Connection> {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    throw new SourceError('the database_url is not a URL');
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new SourceError('the database_url must be mysql://');
  }
  const policy: AddressPolicy = options.allowPrivateAddresses
    ? { resolve: options.resolve, allowAddress: () => true }
    : options;
  let address: string;
  try {
    ({ address } = await checkedAddress(parsed.hostname, policy, {
      ms: options.timeoutMs,
      error: () => new SourceError(`the database's name ${parsed.hostname} did not resolve in time`),
    }));
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      throw new SourceError(
        `the database ${parsed.hostname} is on an address imports may not reach (IMPORT_ALLOW_PRIVATE_ADDRESSES)`,
      );
    }
    throw error instanceof SourceError
      ? error
      : new SourceError(`the database's name ${parsed.hostname} does not resolve`);
  }
  try {
    const connection = await createConnection({
      host: address,
      port: parsed.port === '' ? 3306 : Number(parsed.port),
      user: decodeURIComponent(parsed.username),
      password: decodeURIComponent(parsed.password),
      database: decodeURIComponent(parsed.pathname.slice(1)),
      connectTimeout: options.timeoutMs,
      dateStrings: true,
      timezone: 'Z',
      charset: 'utf8mb4',
    });
    await connection.query('SET SESSION TRANSACTION READ ONLY');
    // TIMESTAMP columns are shown in the session's zone: UTC, as every time here is read.
    await connection.query("SET time_zone = '+00:00'");
    return connection;
  } catch (error) {
    throw new SourceError(`the YOURLS database cannot be reached: ${mysqlReason(error)}`);
  }
}

/** What MySQL said, without the connection's details (its password is not in it: mysql2 never puts it there). */
function mysqlReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ER_ACCESS_DENIED_ERROR') return 'the credentials were refused';
  if (code === 'ER_NO_SUCH_TABLE') return 'no YOURLS tables with that prefix';
  if (code === 'ER_BAD_DB_ERROR') return 'no such database';
  return code ?? (error instanceof Error ? error.message : 'failed');
}

function toSourceLink(row: UrlRow, clicks: SourceClick[]): SourceLink {
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
function toClick(row: LogRow): SourceClick | null {
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
