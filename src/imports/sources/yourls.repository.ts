import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { AddressRefusedError, checkedAddress, type AddressPolicy } from '../../common/outbound-address';
import { SourceError } from './source';

export interface YourlsConnectOptions extends AddressPolicy {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A row of YOURLS' `url` table. */
export interface YourlsUrlRow extends RowDataPacket {
  keyword: string;
  url: string;
  title: string | null;
  /** `YYYY-MM-DD hh:mm:ss`, UTC. */
  timestamp: string | null;
  clicks: number;
}

/** A row of YOURLS' `log` table: one visit. */
export interface YourlsLogRow extends RowDataPacket {
  shorturl: string;
  /** `YYYY-MM-DD hh:mm:ss`, UTC. */
  click_time: string;
  referrer: string | null;
  user_agent: string | null;
  country_code: string | null;
}

/**
 * The tables of a YOURLS installation (`url` and `log`, with their prefix), read through one read-only session.
 * Every failure is a {@link SourceError} in MySQL's words, without the connection's details.
 */
export class YourlsTables {
  private readonly url: string;
  private readonly log: string;

  private constructor(
    private readonly connection: Connection,
    /** Letters, digits and `_` only: the DTO checks it, so that it may stand in a table's name. */
    tablePrefix: string,
    private readonly timeoutMs: number,
  ) {
    this.url = `\`${tablePrefix}url\``;
    this.log = `\`${tablePrefix}log\``;
  }

  /** Connects to the database's host as the outbound address policy judged it. */
  static async open(
    databaseUrl: string,
    tablePrefix: string,
    options: YourlsConnectOptions,
  ): Promise<YourlsTables> {
    return new YourlsTables(await connect(databaseUrl, options), tablePrefix, options.timeoutMs);
  }

  async countUrls(): Promise<number> {
    const [{ total }] = await this.query<RowDataPacket & { total: number }>(
      `SELECT count(*) AS total FROM ${this.url}`,
    );
    return Number(total);
  }

  /** At most `limit` links in keyword order, after the keyword `after` when there is one. */
  urls(after: string | null, limit: number): Promise<YourlsUrlRow[]> {
    return this.query<YourlsUrlRow>(
      `SELECT keyword, url, title, timestamp, clicks FROM ${this.url}
        ${after === null ? '' : 'WHERE keyword > ?'} ORDER BY keyword LIMIT ${Number(limit)}`,
      after === null ? [] : [after],
    );
  }

  /** The logged visits of the links by these keywords, in the order they came. */
  async visits(keywords: string[]): Promise<YourlsLogRow[]> {
    if (keywords.length === 0) return [];
    return this.query<YourlsLogRow>(
      `SELECT shorturl, click_time, referrer, user_agent, country_code FROM ${this.log}
        WHERE shorturl IN (?) ORDER BY click_id`,
      [keywords],
    );
  }

  async close(): Promise<void> {
    await this.connection.end().catch(() => undefined);
  }

  private async query<T extends RowDataPacket>(sql: string, values: unknown[] = []): Promise<T[]> {
    try {
      const [rows] = await this.connection.query<T[]>({ sql, values, timeout: this.timeoutMs });
      return rows;
    } catch (error) {
      throw new SourceError(`the YOURLS database refused a read: ${mysqlReason(error)}`);
    }
  }
}

/** A read-only session to the host the outbound address policy allows, its times in UTC. */
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
