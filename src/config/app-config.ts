import { registerAs, type ConfigType } from '@nestjs/config';
import { ConfigError, setting, settingsNamed, settingsOf, type Env, type RedirectStatus } from './settings';

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
 * A database URL of `variable`, with `DATABASE_PASSWORD` put into it when that is set: a password taken as it is (a
 * base64 one from openssl, with `/ + =`), percent-encoded here so that `pg` reads it back whole. Neither value is
 * ever echoed.
 */
function withPassword(raw: string, password: string | undefined, variable: string): string {
  if (password === undefined) return raw;
  const url = new URL(raw);
  if (url.password !== '') {
    throw new ConfigError(
      'DATABASE_PASSWORD',
      `is set, and ${variable} has a password too: give it in one place`,
    );
  }
  if (url.username === '')
    throw new ConfigError(variable, 'must name the user when DATABASE_PASSWORD is set');
  // URL's own setter leaves % as it is, which pg would then decode: every character but the unreserved is encoded.
  const at = raw.indexOf('@', raw.indexOf('//') + 2);
  return `${raw.slice(0, at)}:${encodeURIComponent(password)}${raw.slice(at)}`;
}

/**
 * `DATABASE_URL`, `DATABASE_SESSION_URL` (`DATABASE_URL` unless set) and `DATABASE_REPLICA_URL`, each with
 * `DATABASE_PASSWORD` put in when that is set. The other two need `DATABASE_URL`: they are of its server.
 */
function databaseUrls(env: Env): { databaseUrl?: string; sessionUrl?: string; replicaUrls: string[] } {
  const raw = setting(env, 'DATABASE_URL');
  const password = setting(env, 'DATABASE_PASSWORD');
  const session = setting(env, 'DATABASE_SESSION_URL');
  const replicas = setting(env, 'DATABASE_REPLICA_URL') ?? [];
  if (raw === undefined) {
    for (const [variable, given] of [
      ['DATABASE_PASSWORD', password !== undefined],
      ['DATABASE_SESSION_URL', session !== undefined],
      ['DATABASE_REPLICA_URL', replicas.length > 0],
    ] as const) {
      if (given)
        throw new ConfigError(variable, 'needs DATABASE_URL (the embedded database has no other server)');
    }
    return { databaseUrl: undefined, sessionUrl: undefined, replicaUrls: [] };
  }
  const databaseUrl = withPassword(raw, password, 'DATABASE_URL');
  return {
    databaseUrl,
    sessionUrl: session === undefined ? databaseUrl : withPassword(session, password, 'DATABASE_SESSION_URL'),
    replicaUrls: replicas.map((url) => withPassword(url, password, 'DATABASE_REPLICA_URL')),
  };
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
  const read = settingsOf(env, ['PORT', 'APP_URL', 'TRUST_PROXY', 'LOG_LEVEL']);
  // The service's name, as its root page and its API docs show it; the host of `appUrl` by default.
  return { ...read, appName: setting(env, 'APP_NAME') ?? new URL(read.appUrl).host };
});
export type ServerConfig = ConfigType<typeof serverConfig>;

export const databaseConfig = settings('database', (env) => ({
  /**
   * `databaseUrl`: a PostgreSQL URL, undefined for the embedded database under `dataDir`; `sessionUrl`: where the
   * connections that need a session go (`databaseUrl` unless set apart); `replicaUrls`: read replicas, maybe none.
   */
  ...databaseUrls(env),
  ...settingsOf(env, [
    'REPLICA_MAX_LAG_MS',
    'DATABASE_STATEMENT_TIMEOUT_MS',
    'DATABASE_POOL_TIMEOUT_MS',
    'DATABASE_POOL_SIZE',
    'DATABASE_POOL_MIN',
    'DATA_DIR',
    'EMBEDDED_SHARED_BUFFERS_MB',
    'EMBEDDED_OPTIMIZE_WASM',
  ]),
}));
export type DatabaseConfig = ConfigType<typeof databaseConfig>;

export const authConfig = settings('auth', (env) =>
  settingsOf(env, ['INITIAL_API_KEY', 'RATE_LIMIT_PER_MINUTE', 'SESSION_TTL_HOURS']),
);
export type AuthConfig = ConfigType<typeof authConfig>;

/** People (contract §11): the first owner, registration, the mail of invitations and resets, the audit log's age. */
export const peopleConfig = settings('people', (env) => {
  const read = settingsOf(env, [
    'INITIAL_ADMIN_EMAIL',
    'INITIAL_ADMIN_PASSWORD',
    'REGISTRATION',
    'SMTP_URL',
    'AUDIT_RETENTION_DAYS',
  ]);
  const oidc = settingsNamed(env, 'OIDC_');
  const given = [oidc.oidcIssuerUrl, oidc.oidcClientId, oidc.oidcClientSecret].filter(
    (value) => value !== undefined,
  );
  if (given.length !== 0 && given.length !== 3) {
    throw new ConfigError(
      oidc.oidcIssuerUrl === undefined
        ? 'OIDC_ISSUER_URL'
        : oidc.oidcClientId === undefined
          ? 'OIDC_CLIENT_ID'
          : 'OIDC_CLIENT_SECRET',
      'must be set with the other two of OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    );
  }
  if ((read.initialAdminEmail === undefined) !== (read.initialAdminPassword === undefined)) {
    throw new ConfigError(
      read.initialAdminEmail === undefined ? 'INITIAL_ADMIN_EMAIL' : 'INITIAL_ADMIN_PASSWORD',
      'must be set with ' +
        (read.initialAdminEmail === undefined ? 'INITIAL_ADMIN_PASSWORD' : 'INITIAL_ADMIN_EMAIL'),
    );
  }
  const host = new URL(setting(env, 'APP_URL')).hostname;
  return { ...read, ...oidc, mailFrom: setting(env, 'MAIL_FROM') ?? `no-reply@${host}` };
});
export type PeopleConfig = ConfigType<typeof peopleConfig>;

/** Where the API, visitor and password-attempt limits are counted: one Redis for all instances, or memory. */
export const limitsConfig = settings('limits', (env) => settingsNamed(env, 'REDIS_'));
export type LimitsConfig = ConfigType<typeof limitsConfig>;

export const clicksConfig = settings('clicks', (env) => settingsNamed(env, 'CLICK_'));
export type ClicksConfig = ConfigType<typeof clicksConfig>;

export const visitsConfig = settings('visits', (env) => ({
  redirectStatus: Number(setting(env, 'REDIRECT_STATUS')) as RedirectStatus,
  ...settingsOf(env, [
    'VISITOR_RATE_LIMIT_PER_MINUTE',
    'LINK_CACHE_SIZE',
    'HONOR_DO_NOT_TRACK',
    'TRACK_REFERRER',
    'TRACK_CITY',
  ]),
}));
export type VisitsConfig = ConfigType<typeof visitsConfig>;

export const targetingConfig = settings('targeting', (env) => settingsOf(env, ['GEOIP_CITY_DATABASE']));
export type TargetingConfig = ConfigType<typeof targetingConfig>;

export const metricsConfig = settings('metrics', (env) => settingsNamed(env, 'METRICS_'));
export type MetricsConfig = ConfigType<typeof metricsConfig>;

/** What one account may hold at most; 0 sets no limit. */
export const quotasConfig = settings('quotas', (env) => settingsNamed(env, 'MAX_'));
export type QuotasConfig = ConfigType<typeof quotasConfig>;

/** The background reads of link targets' titles: how many at once, overall and per host, and how many wait. */
export const titlesConfig = settings('titles', (env) => settingsNamed(env, 'TITLE_FETCH_'));
export type TitlesConfig = ConfigType<typeof titlesConfig>;

/** The background checks of links' targets (contract §13): whether, how often, where and how many at once. */
export const linkChecksConfig = settings('linkChecks', (env) => settingsNamed(env, 'LINK_CHECK'));
export type LinkChecksConfig = ConfigType<typeof linkChecksConfig>;

/** CSV downloads: each holds a database connection (a cursor) for as long as its client reads. */
export const exportsConfig = settings('exports', (env) => {
  const read = settingsNamed(env, 'EXPORT_');
  if (read.exportSlotsPerAccount > read.exportSlots) {
    throw new ConfigError(
      'EXPORT_SLOTS_PER_ACCOUNT',
      `must not be more than EXPORT_SLOTS (${read.exportSlots})`,
    );
  }
  return read;
});
export type ExportsConfig = ConfigType<typeof exportsConfig>;

/** Webhook deliveries (contract §10): how many this instance sends at once, and where they may go. */
export const webhooksConfig = settings('webhooks', (env) => ({
  ...settingsNamed(env, 'WEBHOOK_'),
  eventRetentionDays: setting(env, 'EVENT_RETENTION_DAYS'),
}));
export type WebhooksConfig = ConfigType<typeof webhooksConfig>;

/**
 * Event streams for pipelines (contract §10): each broker gets every event when its URL is set; and the bounds of
 * the event streams of the API (contract §14).
 */
export const eventsConfig = settings('events', (env) => ({
  ...settingsNamed(env, 'EVENTS_'),
  ...settingsNamed(env, 'EVENT_STREAMS_'),
  // The stream's Redis may be under Sentinel or a cluster, as the limits' is.
  ...settingsOf(env, ['REDIS_SENTINELS', 'REDIS_SENTINEL_PASSWORD', 'REDIS_CLUSTER']),
}));
export type EventsConfig = ConfigType<typeof eventsConfig>;

/** Imports from other shorteners (contract §12): where their sources may be, and how hard they are asked. */
export const importsConfig = settings('imports', (env) => settingsNamed(env, 'IMPORT_'));
export type ImportsConfig = ConfigType<typeof importsConfig>;

/** Every group, as @nestjs/config loads them. */
export const CONFIG_SECTIONS = [
  serverConfig,
  databaseConfig,
  authConfig,
  peopleConfig,
  limitsConfig,
  clicksConfig,
  visitsConfig,
  targetingConfig,
  metricsConfig,
  quotasConfig,
  titlesConfig,
  linkChecksConfig,
  exportsConfig,
  webhooksConfig,
  eventsConfig,
  importsConfig,
] as const;

/** Every setting of the service. */
export type AppConfig = ServerConfig &
  DatabaseConfig &
  AuthConfig &
  PeopleConfig &
  LimitsConfig &
  ClicksConfig &
  VisitsConfig &
  TargetingConfig &
  MetricsConfig &
  QuotasConfig &
  TitlesConfig &
  LinkChecksConfig &
  ExportsConfig &
  WebhooksConfig &
  EventsConfig &
  ImportsConfig;

/** All settings at once, validated: a bad value throws a ConfigError that names its variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  return Object.assign({}, ...CONFIG_SECTIONS.map((section) => section.from(env))) as AppConfig;
}
