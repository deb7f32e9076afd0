import type Redis from 'ioredis';
import { redisClient, sentinelsOf } from '../common/redis-server';
import type { LimitsConfig } from '../config/app-config';

/** Bound on opening a connection; a Redis host that does not answer is tried again in the background. */
const CONNECT_TIMEOUT_MS = 2_000;

/** How long a closing connection may take to end before it is destroyed. */
const DISCONNECT_TIMEOUT_MS = 200;

/** The longest pause between two attempts to reconnect. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/** The host and port of a Redis URL, for log lines: never its user, password or database. */
export function redisAddress(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port === '' ? '6379' : port}`;
}

/** What an error says, with the URL and its password taken out, should a message ever quote them. */
export function withoutSecrets(error: unknown, url: string): string {
  let text = error instanceof Error ? error.message : String(error);
  const { password } = new URL(url);
  for (const secret of [url, password, decodeURIComponent(password)]) {
    if (secret !== '') text = text.split(secret).join('***');
  }
  return text;
}

/**
 * A client of the limits' Redis that never holds a request up: while the connection is down a command is refused at
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
