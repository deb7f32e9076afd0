import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { registerAs, type ConfigType } from '@nestjs/config';
import { compile as compileProxyTrust } from 'proxy-addr';

/** The Express `trust proxy` setting: false (ignore X-Forwarded-For), true, a hop count, or addresses/subnets. */
export type TrustProxy = boolean | number | string[];

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const CLICK_DURABILITIES = ['buffered', 'strict'] as const;
export type ClickDurability = (typeof CLICK_DURABILITIES)[number];

/** A value from a fixed list, compared in lower case. */
function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = (read(env, name) ?? fallback).toLowerCase();
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * The settings that may hold a password, a key or a token. Each is read from `<NAME>_FILE` too: the path of a file
 * whose content is the value, as Docker and Kubernetes mount secrets.
 */
export const SECRET_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_PASSWORD',
  'INITIAL_API_KEY',
  'REDIS_URL',
  'METRICS_TOKEN',
  'EVENTS_REDIS_URL',
  'EVENTS_AMQP_URL',
] as const;

const SECRETS: ReadonlySet<string> = new Set(SECRET_SETTINGS);

/**
 * A variable's value as given; for a secret whose `<NAME>_FILE` is set, the content of that file instead, without
 * its trailing line breaks, to be validated as the variable would be. Both set is an error, as is a file that
 * cannot be read or is empty; no error quotes the value or the file's content, only the variables and the path.
 */
function given(env: Env, name: string): string | undefined {
  const value = env[name];
  if (!SECRETS.has(name)) return value;
  const fileVariable = `${name}_FILE`;
  const path = env[fileVariable]?.trim();
  if (path === undefined || path === '') return value;
  if (value !== undefined && value !== '') {
    throw new ConfigError(fileVariable, `is set, and ${name} too: give one of them`);
  }
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new ConfigError(fileVariable, `names a file that cannot be read: "${path}" (${code})`);
  }
  content = content.replace(/(?:\r?\n)+$/, '');
  if (content === '') throw new ConfigError(fileVariable, `names an empty file: "${path}"`);
  return content;
}

function read(env: Env, name: string): string | undefined {
  const value = given(env, name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** `true` or `false` (`1` and `0` too, in any case), as the API reads its flags. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http or https URL, got "${raw}"`);
  }
  if (url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError(name, `must be a bare origin such as https://sho.rt (no path, query or fragment)`);
  }
  return url.origin;
}

const NOT_A_DATABASE_URL =
  'must be a postgres:// or postgresql:// URL (a password with / # @ : % or spaces in it must be percent-encoded, ' +
  'or given apart as DATABASE_PASSWORD)';

/**
 * `DATABASE_URL`, with `DATABASE_PASSWORD` put into it when that is set: a password taken as it is (a base64 one
 * from openssl, with `/ + =`), percent-encoded here so that `pg` reads it back whole. Neither value is ever echoed.
 */
function databaseUrl(env: Env): string | undefined {
  const raw = read(env, 'DATABASE_URL');
  // Not trimmed: a password may begin or end with a space.
  const stated = given(env, 'DATABASE_PASSWORD');
  const password = stated === '' ? undefined : stated;
  if (raw === undefined) {
    if (password !== undefined)
      throw new ConfigError('DATABASE_PASSWORD', 'needs DATABASE_URL (without a password)');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', NOT_A_DATABASE_URL);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', NOT_A_DATABASE_URL);
  }
  if (password === undefined) return raw;
  if (url.password !== '') {
    throw new ConfigError(
      'DATABASE_PASSWORD',
      'is set, and DATABASE_URL has a password too: give it in one place',
    );
  }
  if (url.username === '')
    throw new ConfigError('DATABASE_URL', 'must name the user when DATABASE_PASSWORD is set');
  // URL's own setter leaves % as it is, which pg would then decode: every character but the unreserved is encoded.
  const at = raw.indexOf('@', raw.indexOf('//') + 2);
  return `${raw.slice(0, at)}:${encodeURIComponent(password)}${raw.slice(at)}`;
}

const NOT_A_REDIS_URL =
  'must be a redis:// or rediss:// URL with a host, and at most a database number as its path ' +
  '(a password with / # @ : % or spaces in it must be percent-encoded)';

/** `REDIS_URL`: where the limits are shared. Never echoed, as it may carry a password. */
function redisUrl(env: Env): string | undefined {
  const raw = read(env, 'REDIS_URL');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', NOT_A_REDIS_URL);
  }
  if (
    (url.protocol !== 'redis:' && url.protocol !== 'rediss:') ||
    url.hostname === '' ||
    !/^\/?\d*$/.test(url.pathname)
  ) {
    throw new ConfigError('REDIS_URL', NOT_A_REDIS_URL);
  }
  return raw;
}

/** What every key of the limits in Redis begins with: printable, without spaces, so that it is one Redis word. */
function redisKeyPrefix(env: Env): string {
  const prefix = read(env, 'REDIS_KEY_PREFIX') ?? 'shortlink:';
  if (!/^[\x21-\x7e]{1,100}$/.test(prefix)) {
    throw new ConfigError('REDIS_KEY_PREFIX', 'must be 1 to 100 printable characters without spaces');
  }
  return prefix;
}

function initialApiKey(env: Env): string | undefined {
  const raw = read(env, 'INITIAL_API_KEY');
  if (raw === undefined) return undefined;
  // At least 32 characters of a URL-safe alphabet: a guessable bootstrap key would defeat the hashed keys.
  if (!/^[A-Za-z0-9_\-.~]{32,512}$/.test(raw)) {
    throw new ConfigError('INITIAL_API_KEY', 'must be 32 to 512 characters of A-Z a-z 0-9 _ - . ~');
  }
  return raw;
}

/** Comma-separated paths of readable MaxMind DB files (an IPv4 and an IPv6 file, or one for both). */
function geoipCityDatabase(env: Env): string[] | undefined {
  const raw = read(env, 'GEOIP_CITY_DATABASE');
  if (raw === undefined) return undefined;
  const files = raw
    .split(',')
    .map((file) => file.trim())
    .filter((file) => file !== '');
  for (const file of files) {
    try {
      accessSync(file, constants.R_OK);
      if (!statSync(file).isFile()) throw new Error('not a file');
    } catch {
      throw new ConfigError(
        'GEOIP_CITY_DATABASE',
        `must name readable .mmdb files, and "${file}" is not one`,
      );
    }
  }
  return files;
}

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    const address = entry.split('/')[0];
    if (!named.has(entry) && isIP(address) === 0) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be true, false, a hop count, or addresses/subnets, got "${raw}"`,
      );
    }
  }
  try {
    compileProxyTrust(entries);
  } catch {
    throw new ConfigError('TRUST_PROXY', `has an invalid address or subnet in "${raw}"`);
  }
  return entries;
}

function metricsToken(env: Env): string | undefined {
  const token = read(env, 'METRICS_TOKEN');
  if (token === undefined) return undefined;
  if (!/^[\x21-\x7e]{16,512}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN', 'must be 16 to 512 printable characters without spaces');
  }
  return token;
}

/** The address the metrics port listens on: an IP address (`0.0.0.0` or `::` for every interface). */
function metricsHost(env: Env): string {
  const host = read(env, 'METRICS_HOST') ?? '127.0.0.1';
  if (isIP(host) === 0) {
    throw new ConfigError('METRICS_HOST', `must be an IPv4 or IPv6 address, got "${host}"`);
  }
  return host;
}

/** A broker's URL, one of `schemes` (in lower case, as its client reads them); never echoed: it may hold a password. */
function brokerUrl(env: Env, name: string, schemes: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const expected =
    `must be a URL with a host, starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')} ` +
    '(a password with / # @ : % ? or spaces in it percent-encoded)';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, expected);
  }
  if (!schemes.some((scheme) => raw.startsWith(`${scheme}://`)) || url.hostname === '') {
    throw new ConfigError(name, expected);
  }
  return raw;
}

function appName(env: Env, appUrl: string): string {
  const name = read(env, 'APP_NAME');
  if (name === undefined) return new URL(appUrl).host;
  // Shown in page titles and headings: one line of printable text.
  if (name.length > 100 || [...name].some((character) => character < ' ' || character === '\u007f')) {
    throw new ConfigError('APP_NAME', 'must be at most 100 characters, without control characters');
  }
  return name;
}

/**
 * One group of settings: read from an environment by `from` (what tests and the start-up check call), and
 * registered with @nestjs/config under `KEY`, so that a provider injects just its own group, typed.
 */
function settings<K extends string, T extends object>(key: K, from: (env: Env) => T) {
  return Object.assign(
    registerAs(key, () => from(process.env)),
    { from },
  );
}

/** The HTTP server and what every part of it shares. */
export const serverConfig = settings('server', (env) => {
  const appUrl = httpUrl(env, 'APP_URL', 'http://localhost:3000');
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    /** Public base URL, without a trailing slash; its host is the system domain. */
    appUrl,
    /** The service's name, as its root page and its API docs show it; the host of `appUrl` by default. */
    appName: appName(env, appUrl),
    trustProxy: parseTrustProxy(read(env, 'TRUST_PROXY')),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
  };
});
export type ServerConfig = ConfigType<typeof serverConfig>;

export const databaseConfig = settings('database', (env) => ({
  /** A PostgreSQL URL; undefined selects the embedded database under `dataDir`. */
  databaseUrl: databaseUrl(env),
  // Defaults that answer a request within 5 s when the database stops answering, yet leave slow queries room.
  /** The server cancels a statement after this long; the client gives up on the connection a second later. */
  databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 3000, 100, 600_000),
  /** Bound on the wait for a database connection, from the pool or a new one. */
  databasePoolTimeoutMs: integer(env, 'DATABASE_POOL_TIMEOUT_MS', 3000, 100, 600_000),
  databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
  /** Connections the pool keeps open through quiet spells (at most the pool's size): a burst finds them ready. */
  databasePoolMin: integer(env, 'DATABASE_POOL_MIN', 10, 0, 1000),
  dataDir: read(env, 'DATA_DIR') ?? './data',
  /**
   * The embedded database's `shared_buffers`, in MB: its page cache inside the WebAssembly memory, which never gives
   * memory back once grown. PostgreSQL's 128 MB default held 110 MB more resident for no gain on a small database.
   */
  embeddedSharedBuffersMb: integer(env, 'EMBEDDED_SHARED_BUFFERS_MB', 16, 1, 1024),
  /**
   * Whether V8 optimizes the embedded database's WebAssembly (TurboFan) as well as compiling it at once (Liftoff):
   * faster queries under load, for 80 to 150 MB more resident.
   */
  embeddedOptimizeWasm: flag(env, 'EMBEDDED_OPTIMIZE_WASM', false),
}));
export type DatabaseConfig = ConfigType<typeof databaseConfig>;

export const authConfig = settings('auth', (env) => ({
  initialApiKey: initialApiKey(env),
  /** Requests per minute per API key; 0 turns rate limiting off. */
  rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 0, 1_000_000),
  /** Hours a dashboard session lasts after sign-in (never past its key's expiry). */
  sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 12, 1, 720),
}));
export type AuthConfig = ConfigType<typeof authConfig>;

/** Where the API, visitor and password-attempt limits are counted: one Redis for all instances, or memory. */
export const limitsConfig = settings('limits', (env) => ({
  /** A Redis that every instance shares; undefined counts the limits in each instance's memory. */
  redisUrl: redisUrl(env),
  /** Before every key the limits write, so that a Redis shared with other programs keeps them apart. */
  redisKeyPrefix: redisKeyPrefix(env),
  /** A limit check that Redis has not answered by then is counted in memory, and Redis is taken for down. */
  redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 200, 10, 10_000),
}));
export type LimitsConfig = ConfigType<typeof limitsConfig>;

export const clicksConfig = settings('clicks', (env) => ({
  /** How often buffered clicks are written; what a kill -9 can lose at most. */
  clickFlushMs: integer(env, 'CLICK_FLUSH_MS', 100, 1, 1000),
  /** `buffered`: a visit is answered before its click is committed; `strict`: only after (group commit). */
  clickDurability: oneOf(env, 'CLICK_DURABILITY', CLICK_DURABILITIES, 'buffered'),
  /** Clicks kept while the database does not answer; past it, visits get 503. */
  clickBufferMax: integer(env, 'CLICK_BUFFER_MAX', 100_000, 100, 10_000_000),
  /**
   * Days raw clicks are kept; 0 keeps them forever. Older ones are dropped a calendar month at a time (a partition),
   * once the whole month is older; stats and totals stay exact from the rollups.
   */
  clickRetentionDays: integer(env, 'CLICK_RETENTION_DAYS', 0, 0, 36_500),
}));
export type ClicksConfig = ConfigType<typeof clicksConfig>;

export const visitsConfig = settings('visits', (env) => {
  const redirectStatus = integer(env, 'REDIRECT_STATUS', 302, 100, 599);
  if (!(REDIRECT_STATUSES as readonly number[]).includes(redirectStatus)) {
    throw new ConfigError(
      'REDIRECT_STATUS',
      `must be one of ${REDIRECT_STATUSES.join(', ')}, got "${redirectStatus}"`,
    );
  }
  return {
    redirectStatus: redirectStatus as RedirectStatus,
    /** Requests per minute per client address (IPv6: per /64) on the visitor routes; 0 turns the limit off. */
    // Ten a second for a whole minute: no person comes near it; an office behind one address rarely does.
    visitorRateLimitPerMinute: integer(env, 'VISITOR_RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000_000),
    /** Links kept in each instance's memory for visits; 0 turns the cache off. */
    linkCacheSize: integer(env, 'LINK_CACHE_SIZE', 100_000, 0, 10_000_000),
    /** A visitor who sends `Sec-GPC: 1` or `DNT: 1` is counted without referrer and city. */
    honorDoNotTrack: flag(env, 'HONOR_DO_NOT_TRACK', true),
    /** false: no click keeps its referrer. */
    trackReferrer: flag(env, 'TRACK_REFERRER', true),
    /** false: no click keeps its city, even with a city database installed. */
    trackCity: flag(env, 'TRACK_CITY', true),
  };
});
export type VisitsConfig = ConfigType<typeof visitsConfig>;

export const targetingConfig = settings('targeting', (env) => ({
  /** City database files (MaxMind DB format); undefined: the optional npm package's, where installed. */
  geoipCityDatabase: geoipCityDatabase(env),
}));
export type TargetingConfig = ConfigType<typeof targetingConfig>;

export const metricsConfig = settings('metrics', (env) => ({
  /**
   * When set, `GET /metrics` needs it as a bearer token, on the metrics port and on the public one; unset, only
   * the metrics port serves them, to whoever reaches it.
   */
  metricsToken: metricsToken(env),
  /** The port of its own that serves `GET /metrics` and nothing else (0: any free port). */
  metricsPort: integer(env, 'METRICS_PORT', 9464, 0, 65535),
  /** Where that port listens: the loopback interface unless told otherwise (the image says every interface). */
  metricsHost: metricsHost(env),
}));
export type MetricsConfig = ConfigType<typeof metricsConfig>;

/** What one account may hold at most; 0 sets no limit. */
export const quotasConfig = settings('quotas', (env) => ({
  maxLinksPerAccount: integer(env, 'MAX_LINKS_PER_ACCOUNT', 100_000, 0, 1_000_000_000),
  maxSpacesPerAccount: integer(env, 'MAX_SPACES_PER_ACCOUNT', 1000, 0, 1_000_000_000),
  maxDomainsPerAccount: integer(env, 'MAX_DOMAINS_PER_ACCOUNT', 100, 0, 1_000_000_000),
  maxPixelsPerAccount: integer(env, 'MAX_PIXELS_PER_ACCOUNT', 100, 0, 1_000_000_000),
  maxKeysPerAccount: integer(env, 'MAX_KEYS_PER_ACCOUNT', 100, 0, 1_000_000_000),
  maxWebhooksPerAccount: integer(env, 'MAX_WEBHOOKS_PER_ACCOUNT', 20, 0, 1_000_000_000),
}));
export type QuotasConfig = ConfigType<typeof quotasConfig>;

/** The background reads of link targets' titles: how many at once, overall and per host, and how many wait. */
export const titlesConfig = settings('titles', (env) => ({
  /** Fetches under way at once; 0 fetches no title. */
  titleFetchConcurrency: integer(env, 'TITLE_FETCH_CONCURRENCY', 8, 0, 1000),
  /** Fetches under way at once to one host. */
  titleFetchPerHost: integer(env, 'TITLE_FETCH_PER_HOST', 2, 1, 1000),
  /** Fetches waiting for their turn; past this, a new link's title is not fetched. */
  titleFetchQueue: integer(env, 'TITLE_FETCH_QUEUE', 10_000, 0, 1_000_000),
}));
export type TitlesConfig = ConfigType<typeof titlesConfig>;

/** CSV downloads: each holds a database connection (a cursor) for as long as its client reads. */
export const exportsConfig = settings('exports', (env) => {
  const exportSlots = integer(env, 'EXPORT_SLOTS', 4, 1, 1000);
  const exportSlotsPerAccount = integer(env, 'EXPORT_SLOTS_PER_ACCOUNT', 2, 1, 1000);
  if (exportSlotsPerAccount > exportSlots) {
    throw new ConfigError('EXPORT_SLOTS_PER_ACCOUNT', `must not be more than EXPORT_SLOTS (${exportSlots})`);
  }
  return {
    /** Exports under way at once in one instance. */
    exportSlots,
    /** Exports under way at once for one account, so that one account cannot hold them all. */
    exportSlotsPerAccount,
    /** An export whose client takes nothing (less than a 64 KB piece) for this long is ended. */
    exportStallTimeoutMs: integer(env, 'EXPORT_STALL_TIMEOUT_MS', 10_000, 100, 600_000),
  };
});
export type ExportsConfig = ConfigType<typeof exportsConfig>;

/** Webhook deliveries (contract §10): how many this instance sends at once, and where they may go. */
export const webhooksConfig = settings('webhooks', (env) => ({
  /** Deliveries under way at once in this instance; one webhook never holds more than a few of them. */
  webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 16, 1, 1000),
  /** true: webhook URLs may lead to private, loopback and link-local addresses (receivers on a private network). */
  webhookAllowPrivateAddresses: flag(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES', false),
  /** The longest a delivery may take, from resolving the name to the answer (the contract's 10 s at most). */
  webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 10_000),
  /** Pending deliveries one webhook may have; past it the oldest are dropped (counted, logged). */
  webhookBacklogMax: integer(env, 'WEBHOOK_BACKLOG_MAX', 100_000, 100, 100_000_000),
  /** Days delivered events and the delivery log are kept. */
  eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 7, 1, 3650),
}));
export type WebhooksConfig = ConfigType<typeof webhooksConfig>;

/** Event streams for pipelines (contract §10): each broker gets every event when its URL is set. */
export const eventsConfig = settings('events', (env) => ({
  /** Each event is added to the Redis stream `shortlink:events`. */
  eventsRedisUrl: brokerUrl(env, 'EVENTS_REDIS_URL', ['redis', 'rediss']),
  /** The stream is trimmed to about this many entries. */
  eventsRedisMaxLength: integer(env, 'EVENTS_REDIS_MAXLEN', 1_000_000, 1000, 1_000_000_000),
  /** Each event is published to the topic exchange `shortlink.events`, its type as the routing key. */
  eventsAmqpUrl: brokerUrl(env, 'EVENTS_AMQP_URL', ['amqp', 'amqps']),
  /** Pending deliveries one stream may have while its broker is down; past it the oldest are dropped (counted, logged). */
  eventsStreamBacklogMax: integer(env, 'EVENTS_STREAM_BACKLOG_MAX', 1_000_000, 100, 1_000_000_000),
}));
export type EventsConfig = ConfigType<typeof eventsConfig>;

/** Every group, as @nestjs/config loads them. */
export const CONFIG_SECTIONS = [
  serverConfig,
  databaseConfig,
  authConfig,
  limitsConfig,
  clicksConfig,
  visitsConfig,
  targetingConfig,
  metricsConfig,
  quotasConfig,
  titlesConfig,
  exportsConfig,
  webhooksConfig,
  eventsConfig,
] as const;

/** Every setting of the service. */
export type AppConfig = ServerConfig &
  DatabaseConfig &
  AuthConfig &
  LimitsConfig &
  ClicksConfig &
  VisitsConfig &
  TargetingConfig &
  MetricsConfig &
  QuotasConfig &
  TitlesConfig &
  ExportsConfig &
  WebhooksConfig &
  EventsConfig;

/** All settings at once, validated: a bad value throws a ConfigError that names its variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  return Object.assign({}, ...CONFIG_SECTIONS.map((section) => section.from(env))) as AppConfig;
}
