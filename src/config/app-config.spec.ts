import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import {
  clicksConfig,
  ConfigError,
  eventsConfig,
  loadConfig,
  parseTrustProxy,
  SECRET_SETTINGS,
  serverConfig,
  type ClicksConfig,
  type ServerConfig,
} from './app-config';
import { AppConfigModule } from './config.module';

/** The ConfigError that loading `env` throws; fails the test when it loads. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) did not throw`);
}

/** The event brokers' and streams' settings when nothing sets them. */
const EVENTS_DEFAULTS = {
  eventsRedisUrl: undefined,
  eventsRedisMaxlen: 1_000_000,
  eventsAmqpUrl: undefined,
  eventsStreamBacklogMax: 1_000_000,
  eventStreamsPerAccount: 10,
  eventStreamsPerInstance: 1000,
};

/** The error that refuses `variable` set to `value`: it names the variable. */
function refusalOf(variable: string, value: string): ConfigError {
  const error = configError({ [variable]: value });
  expect(error.variable).toBe(variable);
  return error;
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      appUrl: 'http://localhost:3000',
      appName: 'localhost:3000',
      auditRetentionDays: 365,
      mailFrom: 'no-reply@localhost',
      registration: 'closed',
      oidcDefaultRole: 'viewer',
      databaseUrl: undefined,
      sessionUrl: undefined,
      replicaUrls: [],
      replicaMaxLagMs: 1000,
      databaseStatementTimeoutMs: 3000,
      databasePoolTimeoutMs: 3000,
      databasePoolSize: 10,
      databasePoolMin: 10,
      dataDir: './data',
      embeddedSharedBuffersMb: 16,
      embeddedOptimizeWasm: false,
      initialApiKey: undefined,
      rateLimitPerMinute: 120,
      sessionTtlHours: 12,
      visitorRateLimitPerMinute: 600,
      redisUrl: undefined,
      redisSentinels: undefined,
      redisSentinelPassword: undefined,
      redisCluster: false,
      redisKeyPrefix: 'shortlink:',
      redisTimeoutMs: 200,
      clickFlushMs: 100,
      clickRetentionDays: 0,
      clickDurability: 'buffered',
      clickBufferMax: 100_000,
      linkCacheSize: 100_000,
      honorDoNotTrack: true,
      trackReferrer: true,
      trackCity: true,
      trustProxy: false,
      redirectStatus: 302,
      logLevel: 'info',
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
      maxLinksPerAccount: 100_000,
      maxSpacesPerAccount: 1000,
      maxDomainsPerAccount: 100,
      maxPixelsPerAccount: 100,
      maxKeysPerAccount: 100,
      maxWebhooksPerAccount: 20,
      maxTagsPerAccount: 10_000,
      maxUtmTemplatesPerAccount: 100,
      titleFetchConcurrency: 8,
      titleFetchPerHost: 2,
      titleFetchQueue: 10_000,
      linkChecks: true,
      linkCheckIntervalHours: 24,
      linkCheckAllowPrivateAddresses: false,
      linkCheckConcurrency: 8,
      linkCheckRate: 20,
      exportSlots: 4,
      importAllowPrivateAddresses: false,
      importLeaseMs: 60_000,
      importRunner: true,
      importRequestsPerSecond: 20,
      importTimeoutMs: 30_000,
      exportSlotsPerAccount: 2,
      exportStallTimeoutMs: 10_000,
      webhookConcurrency: 16,
      webhookAllowPrivateAddresses: false,
      webhookTimeoutMs: 10_000,
      webhookBacklogMax: 100_000,
      eventRetentionDays: 7,
      ...EVENTS_DEFAULTS,
    });
  });

  it('treats empty and blank values as unset', () => {
    expect(loadConfig({ PORT: '', APP_URL: '  ', DATABASE_URL: '', LOG_LEVEL: '' })).toMatchObject({
      port: 3000,
      appUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      logLevel: 'info',
    });
  });

  it('reads valid values', () => {
    const key = 'k'.repeat(40);
    expect(
      loadConfig({
        PORT: ' 8080 ',
        APP_URL: 'https://sho.rt/',
        APP_NAME: ' Sho.rt links ',
        DATABASE_URL: 'postgresql://user:pw@db:5432/links',
        DATABASE_SESSION_URL: 'postgresql://user:pw@db-direct:5432/links',
        DATABASE_REPLICA_URL: 'postgresql://user:pw@replica-1/links, postgres://user:pw@[::1]:5433/links',
        REPLICA_MAX_LAG_MS: '250',
        DATABASE_STATEMENT_TIMEOUT_MS: '15000',
        DATABASE_POOL_TIMEOUT_MS: '2000',
        DATABASE_POOL_SIZE: '25',
        DATABASE_POOL_MIN: '5',
        DATA_DIR: '/var/lib/shortlink',
        EMBEDDED_SHARED_BUFFERS_MB: '64',
        EMBEDDED_OPTIMIZE_WASM: 'true',
        INITIAL_API_KEY: key,
        RATE_LIMIT_PER_MINUTE: '0',
        SESSION_TTL_HOURS: '168',
        VISITOR_RATE_LIMIT_PER_MINUTE: '1000000000',
        REDIS_URL: 'rediss://limits:s3cret@redis.internal:6380/2',
        REDIS_SENTINELS: 'sentinel-1:26379, [fd00::2]:26380',
        REDIS_CLUSTER: 'TRUE',
        REDIS_KEY_PREFIX: 'sho.rt:limits:',
        REDIS_TIMEOUT_MS: '50',
        CLICK_FLUSH_MS: '20',
        CLICK_DURABILITY: 'Strict',
        CLICK_BUFFER_MAX: '500',
        CLICK_RETENTION_DAYS: '90',
        LINK_CACHE_SIZE: '0',
        HONOR_DO_NOT_TRACK: 'false',
        TRACK_REFERRER: ' FALSE ',
        TRACK_CITY: '0',
        TRUST_PROXY: '1',
        REDIRECT_STATUS: '301',
        LOG_LEVEL: 'DEBUG',
        METRICS_PORT: '9100',
        METRICS_HOST: '::',
        MAX_LINKS_PER_ACCOUNT: '0',
        MAX_SPACES_PER_ACCOUNT: '5',
        MAX_DOMAINS_PER_ACCOUNT: '0',
        MAX_PIXELS_PER_ACCOUNT: '7',
        MAX_KEYS_PER_ACCOUNT: '9',
        MAX_WEBHOOKS_PER_ACCOUNT: '3',
        WEBHOOK_TIMEOUT_MS: '2500',
        WEBHOOK_BACKLOG_MAX: '500',
        EVENTS_STREAM_BACKLOG_MAX: '2000',
        EVENT_RETENTION_DAYS: '30',
        EVENT_STREAMS_PER_ACCOUNT: '3',
        EVENT_STREAMS_PER_INSTANCE: '50',
        TITLE_FETCH_CONCURRENCY: '0',
        TITLE_FETCH_PER_HOST: '4',
        TITLE_FETCH_QUEUE: '0',
        EXPORT_SLOTS: '8',
        EXPORT_SLOTS_PER_ACCOUNT: '8',
        EXPORT_STALL_TIMEOUT_MS: '500',
        WEBHOOK_CONCURRENCY: '1',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        EVENTS_REDIS_URL: 'rediss://:pw@cache:6380/2',
        EVENTS_REDIS_MAXLEN: '1000',
        EVENTS_AMQP_URL: ' amqps://user:pw@mq/events ',
      }),
    ).toEqual({
      port: 8080,
      appUrl: 'https://sho.rt',
      appName: 'Sho.rt links',
      auditRetentionDays: 365,
      mailFrom: 'no-reply@sho.rt',
      registration: 'closed',
      oidcDefaultRole: 'viewer',
      databaseUrl: 'postgresql://user:pw@db:5432/links',
      sessionUrl: 'postgresql://user:pw@db-direct:5432/links',
      replicaUrls: ['postgresql://user:pw@replica-1/links', 'postgres://user:pw@[::1]:5433/links'],
      replicaMaxLagMs: 250,
      databaseStatementTimeoutMs: 15000,
      databasePoolTimeoutMs: 2000,
      databasePoolSize: 25,
      databasePoolMin: 5,
      dataDir: '/var/lib/shortlink',
      embeddedSharedBuffersMb: 64,
      embeddedOptimizeWasm: true,
      initialApiKey: key,
      rateLimitPerMinute: 0,
      sessionTtlHours: 168,
      visitorRateLimitPerMinute: 1_000_000_000,
      redisUrl: 'rediss://limits:s3cret@redis.internal:6380/2',
      redisSentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: 'fd00::2', port: 26380 },
      ],
      redisSentinelPassword: undefined,
      redisCluster: true,
      redisKeyPrefix: 'sho.rt:limits:',
      redisTimeoutMs: 50,
      clickFlushMs: 20,
      clickRetentionDays: 90,
      clickDurability: 'strict',
      clickBufferMax: 500,
      linkCacheSize: 0,
      honorDoNotTrack: false,
      trackReferrer: false,
      trackCity: false,
      trustProxy: 1,
      redirectStatus: 301,
      logLevel: 'debug',
      metricsPort: 9100,
      metricsHost: '::',
      maxLinksPerAccount: 0,
      maxSpacesPerAccount: 5,
      maxDomainsPerAccount: 0,
      maxPixelsPerAccount: 7,
      maxKeysPerAccount: 9,
      maxWebhooksPerAccount: 3,
      maxTagsPerAccount: 10_000,
      maxUtmTemplatesPerAccount: 100,
      titleFetchConcurrency: 0,
      titleFetchPerHost: 4,
      titleFetchQueue: 0,
      linkChecks: true,
      linkCheckIntervalHours: 24,
      linkCheckAllowPrivateAddresses: false,
      linkCheckConcurrency: 8,
      linkCheckRate: 20,
      exportSlots: 8,
      importAllowPrivateAddresses: false,
      importLeaseMs: 60_000,
      importRunner: true,
      importRequestsPerSecond: 20,
      importTimeoutMs: 30_000,
      exportSlotsPerAccount: 8,
      exportStallTimeoutMs: 500,
      webhookConcurrency: 1,
      webhookAllowPrivateAddresses: true,
      webhookTimeoutMs: 2500,
      webhookBacklogMax: 500,
      eventRetentionDays: 30,
      eventsRedisUrl: 'rediss://:pw@cache:6380/2',
      eventsRedisMaxlen: 1000,
      eventsAmqpUrl: 'amqps://user:pw@mq/events',
      eventsStreamBacklogMax: 2000,
      eventStreamsPerAccount: 3,
      eventStreamsPerInstance: 50,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['APP_URL', 'ftp://x'],
    ['APP_URL', 'not a url'],
    ['APP_URL', 'https://sho.rt/path'],
    ['APP_URL', 'https://sho.rt/?q=1'],
    ['APP_NAME', 'x'.repeat(101)],
    ['APP_NAME', 'two\nlines'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '0'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '99'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '600001'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '3s'],
    ['DATABASE_POOL_TIMEOUT_MS', '0'],
    ['DATABASE_POOL_TIMEOUT_MS', 'soon'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', '1001'],
    ['DATABASE_POOL_MIN', '-1'],
    ['DATABASE_POOL_MIN', '1001'],
    ['DATABASE_POOL_MIN', 'all'],
    ['CLICK_RETENTION_DAYS', '-1'],
    ['CLICK_RETENTION_DAYS', '36501'],
    ['CLICK_RETENTION_DAYS', 'a month'],
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['RATE_LIMIT_PER_MINUTE', 'many'],
    ['VISITOR_RATE_LIMIT_PER_MINUTE', '-5'],
    ['VISITOR_RATE_LIMIT_PER_MINUTE', 'lots'],
    ['VISITOR_RATE_LIMIT_PER_MINUTE', '1000000001'],
    ['REDIS_URL', 'http://redis:6379'],
    ['REDIS_URL', 'redis.internal:6379'],
    ['REDIS_URL', 'redis://'],
    ['REDIS_URL', 'redis://redis:6379/limits'],
    ['REDIS_KEY_PREFIX', 'with spaces:'],
    ['REDIS_KEY_PREFIX', 'x'.repeat(101)],
    ['REDIS_TIMEOUT_MS', '9'],
    ['REDIS_TIMEOUT_MS', '10001'],
    ['REDIS_TIMEOUT_MS', 'fast'],
    ['CLICK_FLUSH_MS', '0'],
    ['CLICK_FLUSH_MS', '5000'],
    ['CLICK_DURABILITY', 'sometimes'],
    ['CLICK_BUFFER_MAX', '10'],
    ['LINK_CACHE_SIZE', '-1'],
    ['HONOR_DO_NOT_TRACK', 'yes'],
    ['TRACK_REFERRER', '2'],
    ['TRACK_CITY', 'off'],
    ['TRUST_PROXY', 'banana'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['REDIRECT_STATUS', '303'],
    ['REDIRECT_STATUS', '200'],
    ['REDIRECT_STATUS', 'abc'],
    ['LOG_LEVEL', 'loud'],
    ['INITIAL_API_KEY', 'short'],
    ['INITIAL_API_KEY', `${'a'.repeat(40)} with spaces`],
    ['METRICS_TOKEN', 'too-short'],
    ['METRICS_TOKEN', 'a token with spaces in it'],
    ['METRICS_PORT', 'prometheus'],
    ['METRICS_PORT', '70000'],
    ['METRICS_HOST', 'metrics.internal'],
    ['MAX_LINKS_PER_ACCOUNT', '-1'],
    ['MAX_LINKS_PER_ACCOUNT', 'lots'],
    ['MAX_SPACES_PER_ACCOUNT', '1.5'],
    ['MAX_DOMAINS_PER_ACCOUNT', '1000000001'],
    ['MAX_PIXELS_PER_ACCOUNT', 'none'],
    ['MAX_KEYS_PER_ACCOUNT', '-1'],
    ['TITLE_FETCH_CONCURRENCY', '1001'],
    ['TITLE_FETCH_PER_HOST', '0'],
    ['TITLE_FETCH_QUEUE', '-1'],
    ['EXPORT_SLOTS', '0'],
    ['EXPORT_SLOTS', 'two'],
    ['EXPORT_SLOTS_PER_ACCOUNT', '0'],
    ['EXPORT_SLOTS_PER_ACCOUNT', '5'],
    ['EXPORT_STALL_TIMEOUT_MS', '99'],
    ['EXPORT_STALL_TIMEOUT_MS', '10s'],
    ['WEBHOOK_CONCURRENCY', '0'],
    ['WEBHOOK_CONCURRENCY', '1001'],
    ['WEBHOOK_CONCURRENCY', 'many'],
    ['WEBHOOK_TIMEOUT_MS', '10001'],
    ['WEBHOOK_BACKLOG_MAX', '99'],
    ['EVENTS_STREAM_BACKLOG_MAX', '99'],
    ['EVENTS_STREAM_BACKLOG_MAX', '1000000001'],
    ['EVENT_RETENTION_DAYS', '0'],
    ['EVENT_STREAMS_PER_ACCOUNT', '0'],
    ['EVENT_STREAMS_PER_INSTANCE', '0'],
    ['EVENT_STREAMS_PER_INSTANCE', '1000001'],
    ['MAX_WEBHOOKS_PER_ACCOUNT', 'x'],
    ['WEBHOOK_ALLOW_PRIVATE_ADDRESSES', 'yes'],
    ['EVENTS_REDIS_URL', 'http://cache:6379'],
    ['EVENTS_REDIS_URL', 'cache:6379'],
    ['EVENTS_REDIS_URL', 'REDIS://cache:6379'],
    ['EVENTS_REDIS_URL', 'redis://'],
    ['EVENTS_REDIS_URL', 'redis://:pass#word@cache:6379'],
    ['EVENTS_REDIS_MAXLEN', '999'],
    ['EVENTS_REDIS_MAXLEN', '1000000001'],
    ['EVENTS_REDIS_MAXLEN', '1e6'],
    ['EVENTS_AMQP_URL', 'redis://mq:5672'],
    ['EVENTS_AMQP_URL', 'amqp:mq'],
    ['EVENTS_AMQP_URL', 'not a url'],
  ])('refuses %s=%s with an error naming the variable', (variable, value) => {
    const error = refusalOf(variable, value);
    expect(error.message).toContain(variable);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
    ['', true],
  ])('reads the flag HONOR_DO_NOT_TRACK=%j as %s, as TRACK_REFERRER and TRACK_CITY', (value, expected) => {
    expect(loadConfig({ HONOR_DO_NOT_TRACK: value, TRACK_REFERRER: value, TRACK_CITY: value })).toMatchObject(
      { honorDoNotTrack: expected, trackReferrer: expected, trackCity: expected },
    );
  });

  it.each([
    ['true', true],
    ['1', true],
    ['FALSE', false],
    ['0', false],
    ['', false],
  ])(
    'reads WEBHOOK_ALLOW_PRIVATE_ADDRESSES=%j as %s: private receivers are refused unless it says so',
    (value, expected) => {
      expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: value }).webhookAllowPrivateAddresses).toBe(
        expected,
      );
    },
  );

  it('never echoes a METRICS_TOKEN it refuses', () => {
    const error = configError({ METRICS_TOKEN: 'secret token value that has spaces' });
    expect(error.variable).toBe('METRICS_TOKEN');
    expect(error.message).not.toContain('secret token');
  });
});

describe('a refused URL', () => {
  it.each([
    ['REDIS_URL', 'http://admin:s3cretPassw0rd@redis.internal:6379'],
    ['REDIS_URL', 'redis://admin:s3cretPassw0rd@redis.internal:6379/limits'],
    ['REDIS_URL', 'redis://admin:s3cretPassw0rd@redis internal'],
    ['DATABASE_URL', 'mysql://admin:s3cretPassw0rd@db.internal/links'],
    ['DATABASE_URL', 'postgres://admin:s3cretPassw0rd@db:port/links'],
    ['EVENTS_REDIS_URL', 'http://admin:s3cretPassw0rd@cache:6379'],
    ['EVENTS_REDIS_URL', 'redis://admin:s3cretPassw0rd@cache:port'],
    ['EVENTS_AMQP_URL', 'mqtt://admin:s3cretPassw0rd@mq:5672'],
    ['EVENTS_AMQP_URL', 'amqp://admin:s3cretPassw0rd@mq:port'],
  ])('of %s is never echoed with its password (%#)', (variable, value) => {
    const error = refusalOf(variable, value);
    expect(error.message).not.toContain('s3cretPassw0rd');
    expect(error.message).not.toContain('admin');
  });
});

describe('the event broker URLs', () => {
  it('are in a group of their own, off by default, with how Redis is reached (the limits say so too)', () => {
    expect(eventsConfig.from({})).toEqual({ ...EVENTS_DEFAULTS, redisCluster: false });
    expect(eventsConfig.from({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_PASSWORD: 'pw' })).toMatchObject({
      redisSentinels: [{ host: 's1', port: 26379 }],
      redisSentinelPassword: 'pw',
    });
  });

  it('stop the boot when one is bad, naming its variable and not its password', async () => {
    const saved = process.env.EVENTS_AMQP_URL;
    process.env.EVENTS_AMQP_URL = 'amqp://shortlink:s3cretPassw0rd@mq:port';
    try {
      const boot = Test.createTestingModule({ imports: [AppConfigModule] }).compile();
      await expect(boot).rejects.toThrow(
        /^Invalid configuration: EVENTS_AMQP_URL must be a URL with a host, starting with amqp:\/\/ or amqps:\/\//,
      );
      await expect(boot).rejects.not.toThrow(/s3cretPassw0rd/);
    } finally {
      if (saved === undefined) delete process.env.EVENTS_AMQP_URL;
      else process.env.EVENTS_AMQP_URL = saved;
    }
  });
});

/** What `pg` connects with, read from a URL the way it reads it. */
const URL_WITHOUT_PASSWORD = 'postgres://shortlink@db:5432/shortlink';

function connectsWith(url: string) {
  const client = new Client({ connectionString: url });
  return { user: client.user, password: client.password, host: client.host, database: client.database };
}

/** What pg reads of a URL of the user `shortlink` to the database `shortlink` on the host `db`, with `password`. */
function shortlinkAtDb(password: string) {
  return { user: 'shortlink', password, host: 'db', database: 'shortlink' };
}

describe('DATABASE_PASSWORD', () => {
  it.each([
    ['from openssl rand -base64', 'q7/Zx+0kLm3P8w==rT/u+Yv1'],
    ['with a hash', 'pass#word'],
    ['with URL delimiters', 'p@ss:w/rd?x=1&y#z'],
    ['with percent signs that look encoded', '100%25sure%41'],
    ['with spaces at its ends', ' padded secret '],
    ['with non-ASCII letters', 'mot-de-passe-été'],
  ])('is put into DATABASE_URL so that pg reads it back whole: a password %s', (_case, password) => {
    const { databaseUrl } = loadConfig({ DATABASE_URL: URL_WITHOUT_PASSWORD, DATABASE_PASSWORD: password });
    expect(connectsWith(databaseUrl!)).toEqual(shortlinkAtDb(password));
  });

  it('leaves DATABASE_URL as it is when unset or empty', () => {
    const url = 'postgres://user:pw@db:5432/links';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: url, DATABASE_PASSWORD: '' }).databaseUrl).toBe(url);
  });

  it.each([
    ['without DATABASE_URL', {}],
    ['beside a DATABASE_URL that has a password already', { DATABASE_URL: 'postgres://u:other@db/x' }],
  ])('is refused %s, naming the variable and never echoing it', (_case, env: Record<string, string>) => {
    const error = configError({ ...env, DATABASE_PASSWORD: 's3cret/pass#word' });
    expect(error.variable).toBe('DATABASE_PASSWORD');
    expect(error.message).not.toContain('s3cret');
  });

  it('is what the refusal of a DATABASE_URL whose password is not encoded suggests, without echoing it', () => {
    const error = configError({ DATABASE_URL: 'postgres://shortlink:ab/cd#ef@db:5432/shortlink' });
    expect(error.variable).toBe('DATABASE_URL');
    expect(error.message).toContain('DATABASE_PASSWORD');
    expect(error.message).not.toMatch(/ab\/cd|#ef/);
  });
});

describe('a secret read from <NAME>_FILE', () => {
  let directory: string;
  let count = 0;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'secret-files-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** A new file holding `content`; its path. */
  function secretFile(content: string): string {
    count += 1;
    const path = join(directory, `secret-${count}`);
    writeFileSync(path, content);
    return path;
  }

  const KEY = 'K3y_-.~'.repeat(6);
  const SETTINGS: Record<string, [string, Record<string, string>, object]> = {
    DATABASE_URL: [
      'postgres://user:pw@db:5432/links',
      {},
      { databaseUrl: 'postgres://user:pw@db:5432/links' },
    ],
    DATABASE_PASSWORD: [
      's3cret',
      { DATABASE_URL: 'postgres://user@db:5432/links' },
      { databaseUrl: 'postgres://user:s3cret@db:5432/links' },
    ],
    DATABASE_SESSION_URL: [
      'postgres://user:pw@db:5432/links',
      { DATABASE_URL: 'postgres://user:pw@pooler:6432/links' },
      { sessionUrl: 'postgres://user:pw@db:5432/links' },
    ],
    DATABASE_REPLICA_URL: [
      'postgres://user:pw@replica:5432/links',
      { DATABASE_URL: 'postgres://user:pw@db:5432/links' },
      { replicaUrls: ['postgres://user:pw@replica:5432/links'] },
    ],
    REDIS_SENTINEL_PASSWORD: ['s3ntinel', {}, { redisSentinelPassword: 's3ntinel' }],
    INITIAL_API_KEY: [KEY, {}, { initialApiKey: KEY }],
    REDIS_URL: ['rediss://:pw@redis:6380/2', {}, { redisUrl: 'rediss://:pw@redis:6380/2' }],
    METRICS_TOKEN: ['t0ken-of-sixteen+', {}, { metricsToken: 't0ken-of-sixteen+' }],
    EVENTS_REDIS_URL: ['redis://:pw@cache:6379', {}, { eventsRedisUrl: 'redis://:pw@cache:6379' }],
    EVENTS_AMQP_URL: ['amqps://user:pw@mq/events', {}, { eventsAmqpUrl: 'amqps://user:pw@mq/events' }],
    INITIAL_ADMIN_PASSWORD: [
      'a long admin password',
      { INITIAL_ADMIN_EMAIL: 'admin@sho.rt' },
      { initialAdminPassword: 'a long admin password' },
    ],
    SMTP_URL: ['smtps://mailer:pw@smtp.sho.rt:465', {}, { smtpUrl: 'smtps://mailer:pw@smtp.sho.rt:465' }],
    OIDC_CLIENT_SECRET: [
      'a secret of the issuer',
      { OIDC_ISSUER_URL: 'https://id.sho.rt', OIDC_CLIENT_ID: 'shortlink' },
      { oidcClientSecret: 'a secret of the issuer' },
    ],
  };

  it('is offered for every setting that may hold a password, a key or a token, and those only', () => {
    expect([...SECRET_SETTINGS].sort()).toEqual(Object.keys(SETTINGS).sort());
    expect(loadConfig({ PORT_FILE: secretFile('8080') }).port).toBe(3000);
  });

  it.each(Object.entries(SETTINGS))(
    '%s: the file’s content is the value, its trailing line break trimmed',
    (name, [value, rest, expected]) => {
      expect(loadConfig({ ...rest, [`${name}_FILE`]: secretFile(`${value}\n`) })).toMatchObject(expected);
    },
  );

  it.each([
    ['no line break', ''],
    ['a line break', '\n'],
    ['a CRLF', '\r\n'],
    ['blank lines', '\n\n\r\n'],
  ])('takes a file that ends with %s the same', (_case, end) => {
    expect(loadConfig({ INITIAL_API_KEY_FILE: secretFile(`${KEY}${end}`) }).initialApiKey).toBe(KEY);
  });

  it('keeps the spaces at a password’s ends, as DATABASE_PASSWORD does', () => {
    const { databaseUrl } = loadConfig({
      DATABASE_URL: URL_WITHOUT_PASSWORD,
      DATABASE_PASSWORD_FILE: secretFile(' padded secret \n'),
    });
    expect(connectsWith(databaseUrl!).password).toBe(' padded secret ');
  });

  it('accepts a DATABASE_URL whose password, with / + = # @ in it, is percent-encoded, unchanged', () => {
    const password = 'q7/Zx+0k=Lm#3P@8w==';
    const url = `postgres://shortlink:${encodeURIComponent(password)}@db:5432/shortlink`;
    expect(url).toContain('%2F');
    const { databaseUrl } = loadConfig({ DATABASE_URL_FILE: secretFile(`${url}\n`) });
    expect(databaseUrl).toBe(url);
    expect(connectsWith(databaseUrl!)).toEqual(shortlinkAtDb(password));
  });

  it('takes a DATABASE_PASSWORD with / + = # @ in it as it is, so that pg reads it back whole', () => {
    const password = 'q7/Zx+0k=Lm#3P@8w==';
    const { databaseUrl } = loadConfig({
      DATABASE_URL: URL_WITHOUT_PASSWORD,
      DATABASE_PASSWORD_FILE: secretFile(`${password}\n`),
    });
    expect(connectsWith(databaseUrl!)).toEqual(shortlinkAtDb(password));
  });

  it('is refused beside the variable itself, naming both and neither value', () => {
    const error = configError({
      INITIAL_API_KEY: 'plain-'.repeat(8),
      INITIAL_API_KEY_FILE: secretFile('from-a-file-'.repeat(4)),
    });
    expect(error.variable).toBe('INITIAL_API_KEY_FILE');
    expect(error.message).toMatch(/INITIAL_API_KEY_FILE .*INITIAL_API_KEY too/);
    expect(error.message).not.toMatch(/plain-|from-a-file/);
  });

  it('is taken beside a variable left empty, as an env file leaves it', () => {
    expect(loadConfig({ INITIAL_API_KEY: '', INITIAL_API_KEY_FILE: secretFile(KEY) }).initialApiKey).toBe(
      KEY,
    );
  });

  /** A new, empty directory; its path. */
  function aDirectory(): string {
    const path = join(directory, 'a-directory');
    mkdirSync(path, { recursive: true });
    return path;
  }

  it.each([
    ['is missing', () => join(directory, 'missing'), 'ENOENT'],
    ['is a directory', aDirectory, 'EISDIR'],
  ])('is refused when the file %s, naming the variable and the path', (_case, pathOf, code) => {
    const path = pathOf();
    const error = configError({ DATABASE_URL_FILE: path });
    expect(error.variable).toBe('DATABASE_URL_FILE');
    expect(error.message).toContain(`"${path}"`);
    expect(error.message).toContain(code);
  });

  it('is refused when the file is empty, rather than leaving the setting unset', () => {
    const path = secretFile('\n');
    const error = configError({ DATABASE_URL_FILE: path });
    expect(error.variable).toBe('DATABASE_URL_FILE');
    expect(error.message).toContain('empty');
  });

  it.each([
    ['INITIAL_API_KEY', 'too-short-s3cret'],
    ['METRICS_TOKEN', 'has spaces s3cret inside'],
    ['REDIS_URL', 'http://user:s3cret@redis'],
    ['EVENTS_AMQP_URL', 'redis://user:s3cret@mq'],
    ['DATABASE_URL', 'postgres://shortlink:ab/s3cret#ef@db:5432/shortlink'],
  ])('validates %s read from a file as the variable, never quoting the content', (name, content) => {
    const fromFile = configError({ [`${name}_FILE`]: secretFile(`${content}\n`) });
    const plain = configError({ [name]: content });
    expect(fromFile.variable).toBe(name);
    expect(fromFile.message).toBe(plain.message);
    expect(fromFile.message).not.toContain('s3cret');
  });
});

describe('parseTrustProxy', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['0', 0],
    ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
    ['127.0.0.1,::1, fd00::/8', ['127.0.0.1', '::1', 'fd00::/8']],
  ])('reads %p as %p', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it.each(['banana', 'loopback, nowhere', '10.0.0.0/33', '300.1.1.1'])('refuses %p', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(ConfigError);
    expect(() => parseTrustProxy(raw)).toThrow(/TRUST_PROXY/);
  });

  it('is read from TRUST_PROXY by loadConfig', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });
});

describe('AppConfigModule', () => {
  it('gives each group to whoever injects its key, read from the environment at boot', async () => {
    const saved = process.env.CLICK_FLUSH_MS;
    process.env.CLICK_FLUSH_MS = '250';
    try {
      const moduleRef = await Test.createTestingModule({ imports: [AppConfigModule] }).compile();
      expect(moduleRef.get<ClicksConfig>(clicksConfig.KEY)).toEqual({
        clickFlushMs: 250,
        clickRetentionDays: 0,
        clickDurability: 'buffered',
        clickBufferMax: 100_000,
      });
      expect(Object.keys(moduleRef.get<ServerConfig>(serverConfig.KEY)).sort()).toEqual([
        'appName',
        'appUrl',
        'logLevel',
        'port',
        'trustProxy',
      ]);
    } finally {
      if (saved === undefined) delete process.env.CLICK_FLUSH_MS;
      else process.env.CLICK_FLUSH_MS = saved;
    }
  });

  it('stops the boot on a bad value, naming its variable', async () => {
    process.env.CLICK_DURABILITY = 'sometimes';
    try {
      await expect(Test.createTestingModule({ imports: [AppConfigModule] }).compile()).rejects.toThrow(
        'Invalid configuration: CLICK_DURABILITY must be one of buffered, strict, got "sometimes"',
      );
    } finally {
      delete process.env.CLICK_DURABILITY;
    }
  });
});

describe('people settings', () => {
  it('takes INITIAL_ADMIN_EMAIL and INITIAL_ADMIN_PASSWORD together, or neither', () => {
    expect(configError({ INITIAL_ADMIN_EMAIL: 'admin@sho.rt' }).variable).toBe('INITIAL_ADMIN_PASSWORD');
    expect(configError({ INITIAL_ADMIN_PASSWORD: 'a long admin password' }).variable).toBe(
      'INITIAL_ADMIN_EMAIL',
    );
    expect(
      loadConfig({ INITIAL_ADMIN_EMAIL: 'admin@sho.rt', INITIAL_ADMIN_PASSWORD: 'a long admin password' })
        .initialAdminEmail,
    ).toBe('admin@sho.rt');
  });

  it('takes the three OIDC settings together, or none', () => {
    const error = configError({ OIDC_ISSUER_URL: 'https://id.sho.rt', OIDC_CLIENT_ID: 'shortlink' });
    expect(error.variable).toBe('OIDC_CLIENT_SECRET');
    expect(error.message).not.toContain('id.sho.rt');
    expect(configError({ OIDC_CLIENT_SECRET: 'a secret' }).variable).toBe('OIDC_ISSUER_URL');
  });

  it('reads the allowed domains as a list, in lower case, and refuses what is no domain', () => {
    const config = loadConfig({ OIDC_ALLOWED_DOMAINS: ' Corp.example, other.example ,' });
    expect(config.oidcAllowedDomains).toEqual(['corp.example', 'other.example']);
    expect(configError({ OIDC_ALLOWED_DOMAINS: 'corp.example, not a domain' }).variable).toBe(
      'OIDC_ALLOWED_DOMAINS',
    );
  });
});
