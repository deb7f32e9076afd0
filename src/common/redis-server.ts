import Redis, { Cluster, type RedisOptions } from 'ioredis';
import type { LimitsConfig } from '../config/app-config';

/** The sentinels to ask for a master, when Redis runs under Sentinel (`REDIS_SENTINELS`). */
export interface RedisSentinels {
  addresses: { host: string; port: number }[];
  /** The sentinels' own password, when they require one. */
  password?: string;
}

/**
 * A client of the Redis a URL names: the server at its host, or, with `sentinels`, the master of the group its host
 * names (`redis://mymaster/0`), asked of the sentinels at every (re)connection, so that a failover is followed
 * without a restart. The URL's user, password, database and TLS (`rediss:`) apply to the master either way.
 */
export function redisClient(
  url: string,
  options: RedisOptions,
  sentinels?: RedisSentinels,
  cluster = false,
): Redis {
  if (cluster) return clusterClient(url, options);
  if (sentinels === undefined) return new Redis(url, options);
  const parsed = new URL(url);
  const database = parsed.pathname.replace(/^\//, '');
  return new Redis({
    ...options,
    sentinels: sentinels.addresses,
    name: decodeURIComponent(parsed.hostname),
    username: parsed.username === '' ? undefined : decodeURIComponent(parsed.username),
    password: parsed.password === '' ? undefined : decodeURIComponent(parsed.password),
    db: database === '' ? 0 : Number(database),
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    sentinelPassword: sentinels.password,
    // Learns of a failover from the sentinels as it happens, not only when the old master's connection breaks.
    failoverDetector: true,
  });
}

/**
 * A client of the Redis Cluster the node of `url` belongs to: the other nodes and the slots are learnt from it, and
 * learnt again when a node fails over. Each key goes to its slot's node; the keys one command or script touches share
 * a hash tag (`{…}`), so they are always on one node. The options of one connection apply to each node's; the
 * prefix and the offline queue are the cluster's own. Typed as a single server's client: the commands, scripts and
 * events the service uses are the same on both.
 */
function clusterClient(url: string, options: RedisOptions): Redis {
  const parsed = new URL(url);
  // Without auto-pipelining: ioredis routes an auto-pipelined script by its first argument (the script's digest),
  // not its key, so a node that never saw the script is asked for it by digest and answers NOSCRIPT.
  const { keyPrefix, enableOfflineQueue, retryStrategy, ...perNode } = options;
  delete perNode.enableAutoPipelining;
  const client = new Cluster([{ host: parsed.hostname, port: Number(parsed.port || 6379) }], {
    keyPrefix,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy ?? undefined,
    redisOptions: {
      ...perNode,
      username: parsed.username === '' ? undefined : decodeURIComponent(parsed.username),
      password: parsed.password === '' ? undefined : decodeURIComponent(parsed.password),
      tls: parsed.protocol === 'rediss:' ? {} : undefined,
    },
  });
  preloadScripts(client);
  return client as unknown as Redis;
}

/**
 * Has every master of the cluster hold the scripts the client defines, as soon as it is known: a script sent by its
 * digest to a node learnt from a MOVED answer (a reshard, a failover, slots not yet agreed on) is otherwise refused
 * with NOSCRIPT, which ioredis does not retry as a full EVAL after a redirection. Loading is idempotent.
 */
function preloadScripts(client: Cluster): void {
  const scripts: string[] = [];
  const load = (node: Redis) => {
    for (const lua of scripts) node.script('LOAD', lua).catch(() => undefined);
  };
  const define = client.defineCommand.bind(client);
  client.defineCommand = (name, definition) => {
    scripts.push(definition.lua);
    define(name, definition);
    for (const node of client.nodes('master')) load(node);
  };
  client.on('+node', (node: Redis) => load(node));
  client.on('ready', () => {
    for (const node of client.nodes('master')) load(node);
  });
}

/** The sentinels of the settings, or undefined when Redis is reached directly. */
export function sentinelsOf(config: {
  redisSentinels?: { host: string; port: number }[];
  redisSentinelPassword?: string;
}): RedisSentinels | undefined {
  return config.redisSentinels === undefined
    ? undefined
    : { addresses: config.redisSentinels, password: config.redisSentinelPassword };
}

/** Bound on opening a connection; a Redis host that does not answer is tried again in the background. */
const CONNECT_TIMEOUT_MS = 2_000;

/** How long a closing connection may take to end before it is destroyed. */
const DISCONNECT_TIMEOUT_MS = 200;

/** The longest pause between two attempts to reconnect. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * A client of the service's Redis (the limits', the replicas' write marks) that never holds a request up: while the connection is down a command is refused at
 * once (no offline queue) instead of waiting; one that has no answer within the timeout is given up; a command in
 * flight when the connection broke is never sent again (a hit must not count twice); and the connection is opened
 * again in the background. Commands issued in one turn of the event loop go out together (auto-pipelining).
 */
export function connectRedis(
  config: Pick<LimitsConfig, 'redisKeyPrefix' | 'redisTimeoutMs'> &
    Partial<Pick<LimitsConfig, 'redisSentinels' | 'redisSentinelPassword' | 'redisCluster'>> & {
      redisUrl: string;
    },
): Redis {
  return redisClient(
    config.redisUrl,
    {
      keyPrefix: config.redisKeyPrefix,
      enableOfflineQueue: false,
      commandTimeout: config.redisTimeoutMs,
      connectTimeout: CONNECT_TIMEOUT_MS,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      enableAutoPipelining: true,
      // A connection being closed has had its QUIT already: no reason to wait long for its end.
      disconnectTimeout: DISCONNECT_TIMEOUT_MS,
      // The client's name and library in CLIENT LIST are not worth a command more on every connection.
      disableClientInfo: true,
    },
    sentinelsOf(config),
    config.redisCluster === true,
  );
}
