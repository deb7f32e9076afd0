import { registerAs, type ConfigType } from '@nestjs/config';
import { ConfigError, setting, type Env, type RedirectStatus } from './settings';

export {
  CLICK_DURABILITIES,
  ConfigError,
  parseTrustProxy,
  REDIRECT_STATUSES,
  SECRET_SETTINGS,
  type ClickDurability,
  type LogLevel,
  type RedirectStatus,
  type TrustProxy,
} from './settings';

/**
 * `DATABASE_URL`, with `DATABASE_PASSWORD` put into it when that is set: a password taken as it is (a base64 one
 * from openssl, with `/ + =`), percent-encoded here so that `pg` reads it back whole. Neither value is ever echoed.
 */
function databaseUrl(env: Env): string | undefined {
  const raw = setting(env, 'DATABASE_URL');
  const password = setting(env, 'DATABASE_PASSWORD');
  if (raw === undefined) {
    if (password !== undefined)
      throw new ConfigError('DATABASE_PASSWORD', 'needs DATABASE_URL (without a password)');
    return undefined;
  }
  if (password === undefined) return raw;
  const url = new URL(raw);
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
  const appUrl = setting(env, 'APP_URL');
  return {
    port: setting(env, 'PORT'),
    /** Public base URL, without a trailing slash; its host is the system domain. */
    appUrl,
    /** The service's name, as its root page and its API docs show it; the host of `appUrl` by default. */
    appName: setting(env, 'APP_NAME') ?? new URL(appUrl).host,
    trustProxy: setting(env, 'TRUST_PROXY'),
    logLevel: setting(env, 'LOG_LEVEL'),
  };
});
export type ServerConfig = ConfigType<typeof serverConfig>;

export const databaseConfig = settings('database', (env) => ({
  /** A PostgreSQL URL; undefined selects the embedded database under `dataDir`. */
  databaseUrl: databaseUrl(env),
  // Defaults that answer a request within 5 s when the database stops answering, yet leave slow queries room.
  /** The server cancels a statement after this long; the client gives up on the connection a second later. */
  databaseStatementTimeoutMs: setting(env, 'DATABASE_STATEMENT_TIMEOUT_MS'),
  /** Bound on the wait for a database connection, from the pool or a new one. */
  databasePoolTimeoutMs: setting(env, 'DATABASE_POOL_TIMEOUT_MS'),
  databasePoolSize: setting(env, 'DATABASE_POOL_SIZE'),
  /** Connections the pool keeps open through quiet spells (at most the pool's size): a burst finds them ready. */
  databasePoolMin: setting(env, 'DATABASE_POOL_MIN'),
  dataDir: setting(env, 'DATA_DIR'),
  /**
   * The embedded database's `shared_buffers`, in MB: its page cache inside the WebAssembly memory, which never gives
   * memory back once grown. PostgreSQL's 128 MB default held 110 MB more resident for no gain on a small database.
   */
  embeddedSharedBuffersMb: setting(env, 'EMBEDDED_SHARED_BUFFERS_MB'),
  /**
   * Whether V8 optimizes the embedded database's WebAssembly (TurboFan) as well as compiling it at once (Liftoff):
   * faster queries under load, for 80 to 150 MB more resident.
   */
  embeddedOptimizeWasm: setting(env, 'EMBEDDED_OPTIMIZE_WASM'),
}));
export type DatabaseConfig = ConfigType<typeof databaseConfig>;

export const authConfig = settings('auth', (env) => ({
  initialApiKey: setting(env, 'INITIAL_API_KEY'),
  /** Requests per minute per API key; 0 turns rate limiting off. */
  rateLimitPerMinute: setting(env, 'RATE_LIMIT_PER_MINUTE'),
  /** Hours a dashboard session lasts after sign-in (never past its key's expiry). */
  sessionTtlHours: setting(env, 'SESSION_TTL_HOURS'),
}));
export type AuthConfig = ConfigType<typeof authConfig>;

/** Where the API, visitor and password-attempt limits are counted: one Redis for all instances, or memory. */
export const limitsConfig = settings('limits', (env) => ({
  /** A Redis that every instance shares; undefined counts the limits in each instance's memory. */
  redisUrl: setting(env, 'REDIS_URL'),
  /** Before every key the limits write, so that a Redis shared with other programs keeps them apart. */
  redisKeyPrefix: setting(env, 'REDIS_KEY_PREFIX'),
  /** A limit check that Redis has not answered by then is counted in memory, and Redis is taken for down. */
  redisTimeoutMs: setting(env, 'REDIS_TIMEOUT_MS'),
}));
export type LimitsConfig = ConfigType<typeof limitsConfig>;

export const clicksConfig = settings('clicks', (env) => ({
  /** How often buffered clicks are written; what a kill -9 can lose at most. */
  clickFlushMs: setting(env, 'CLICK_FLUSH_MS'),
  /** `buffered`: a visit is answered before its click is committed; `strict`: only after (group commit). */
  clickDurability: setting(env, 'CLICK_DURABILITY'),
  /** Clicks kept while the database does not answer; past it, visits get 503. */
  clickBufferMax: setting(env, 'CLICK_BUFFER_MAX'),
  /**
   * Days raw clicks are kept; 0 keeps them forever. Older ones are dropped a calendar month at a time (a partition),
   * once the whole month is older; stats and totals stay exact from the rollups.
   */
  clickRetentionDays: setting(env, 'CLICK_RETENTION_DAYS'),
}));
export type ClicksConfig = ConfigType<typeof clicksConfig>;

export const visitsConfig = settings('visits', (env) => {
  return {
    redirectStatus: Number(setting(env, 'REDIRECT_STATUS')) as RedirectStatus,
    /** Requests per minute per client address (IPv6: per /64) on the visitor routes; 0 turns the limit off. */
    // Ten a second for a whole minute: no person comes near it; an office behind one address rarely does.
    visitorRateLimitPerMinute: setting(env, 'VISITOR_RATE_LIMIT_PER_MINUTE'),
    /** Links kept in each instance's memory for visits; 0 turns the cache off. */
    linkCacheSize: setting(env, 'LINK_CACHE_SIZE'),
    /** A visitor who sends `Sec-GPC: 1` or `DNT: 1` is counted without referrer and city. */
    honorDoNotTrack: setting(env, 'HONOR_DO_NOT_TRACK'),
    /** false: no click keeps its referrer. */
    trackReferrer: setting(env, 'TRACK_REFERRER'),
    /** false: no click keeps its city, even with a city database installed. */
    trackCity: setting(env, 'TRACK_CITY'),
  };
});
export type VisitsConfig = ConfigType<typeof visitsConfig>;

export const targetingConfig = settings('targeting', (env) => ({
  /** City database files (MaxMind DB format); undefined: the optional npm package's, where installed. */
  geoipCityDatabase: setting(env, 'GEOIP_CITY_DATABASE'),
}));
export type TargetingConfig = ConfigType<typeof targetingConfig>;

export const metricsConfig = settings('metrics', (env) => ({
  /**
   * When set, `GET /metrics` needs it as a bearer token, on the metrics port and on the public one; unset, only
   * the metrics port serves them, to whoever reaches it.
   */
  metricsToken: setting(env, 'METRICS_TOKEN'),
  /** The port of its own that serves `GET /metrics` and nothing else (0: any free port). */
  metricsPort: setting(env, 'METRICS_PORT'),
  /** Where that port listens: the loopback interface unless told otherwise (the image says every interface). */
  metricsHost: setting(env, 'METRICS_HOST'),
}));
export type MetricsConfig = ConfigType<typeof metricsConfig>;

/** What one account may hold at most; 0 sets no limit. */
export const quotasConfig = settings('quotas', (env) => ({
  maxLinksPerAccount: setting(env, 'MAX_LINKS_PER_ACCOUNT'),
  maxSpacesPerAccount: setting(env, 'MAX_SPACES_PER_ACCOUNT'),
  maxDomainsPerAccount: setting(env, 'MAX_DOMAINS_PER_ACCOUNT'),
  maxPixelsPerAccount: setting(env, 'MAX_PIXELS_PER_ACCOUNT'),
  maxKeysPerAccount: setting(env, 'MAX_KEYS_PER_ACCOUNT'),
  maxWebhooksPerAccount: setting(env, 'MAX_WEBHOOKS_PER_ACCOUNT'),
}));
export type QuotasConfig = ConfigType<typeof quotasConfig>;

/** The background reads of link targets' titles: how many at once, overall and per host, and how many wait. */
export const titlesConfig = settings('titles', (env) => ({
  /** Fetches under way at once; 0 fetches no title. */
  titleFetchConcurrency: setting(env, 'TITLE_FETCH_CONCURRENCY'),
  /** Fetches under way at once to one host. */
  titleFetchPerHost: setting(env, 'TITLE_FETCH_PER_HOST'),
  /** Fetches waiting for their turn; past this, a new link's title is not fetched. */
  titleFetchQueue: setting(env, 'TITLE_FETCH_QUEUE'),
}));
export type TitlesConfig = ConfigType<typeof titlesConfig>;

/** CSV downloads: each holds a database connection (a cursor) for as long as its client reads. */
export const exportsConfig = settings('exports', (env) => {
  const exportSlots = setting(env, 'EXPORT_SLOTS');
  const exportSlotsPerAccount = setting(env, 'EXPORT_SLOTS_PER_ACCOUNT');
  if (exportSlotsPerAccount > exportSlots) {
    throw new ConfigError('EXPORT_SLOTS_PER_ACCOUNT', `must not be more than EXPORT_SLOTS (${exportSlots})`);
  }
  return {
    /** Exports under way at once in one instance. */
    exportSlots,
    /** Exports under way at once for one account, so that one account cannot hold them all. */
    exportSlotsPerAccount,
    /** An export whose client takes nothing (less than a 64 KB piece) for this long is ended. */
    exportStallTimeoutMs: setting(env, 'EXPORT_STALL_TIMEOUT_MS'),
  };
});
export type ExportsConfig = ConfigType<typeof exportsConfig>;

/** Webhook deliveries (contract §10): how many this instance sends at once, and where they may go. */
export const webhooksConfig = settings('webhooks', (env) => ({
  /** Deliveries under way at once in this instance; one webhook never holds more than a few of them. */
  webhookConcurrency: setting(env, 'WEBHOOK_CONCURRENCY'),
  /** true: webhook URLs may lead to private, loopback and link-local addresses (receivers on a private network). */
  webhookAllowPrivateAddresses: setting(env, 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES'),
  /** The longest a delivery may take, from resolving the name to the answer (the contract's 10 s at most). */
  webhookTimeoutMs: setting(env, 'WEBHOOK_TIMEOUT_MS'),
  /** Pending deliveries one webhook may have; past it the oldest are dropped (counted, logged). */
  webhookBacklogMax: setting(env, 'WEBHOOK_BACKLOG_MAX'),
  /** Days delivered events and the delivery log are kept. */
  eventRetentionDays: setting(env, 'EVENT_RETENTION_DAYS'),
}));
export type WebhooksConfig = ConfigType<typeof webhooksConfig>;

/** Event streams for pipelines (contract §10): each broker gets every event when its URL is set. */
export const eventsConfig = settings('events', (env) => ({
  /** Each event is added to the Redis stream `shortlink:events`. */
  eventsRedisUrl: setting(env, 'EVENTS_REDIS_URL'),
  /** The stream is trimmed to about this many entries. */
  eventsRedisMaxLength: setting(env, 'EVENTS_REDIS_MAXLEN'),
  /** Each event is published to the topic exchange `shortlink.events`, its type as the routing key. */
  eventsAmqpUrl: setting(env, 'EVENTS_AMQP_URL'),
  /** Pending deliveries one stream may have while its broker is down; past it the oldest are dropped (counted, logged). */
  eventsStreamBacklogMax: setting(env, 'EVENTS_STREAM_BACKLOG_MAX'),
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
