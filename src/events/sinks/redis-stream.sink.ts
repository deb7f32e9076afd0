import type Redis from 'ioredis';
import { redisClient, type RedisSentinels } from '../../common/redis-server';
import type { OutgoingEvent } from '../outbox/event';
import { BrokerTimeoutError, withDeadline } from './deadline';
import type { EventSink } from './event-sink';

/** The stream the contract names (§10). */
export const EVENTS_STREAM_KEY = 'shortlink:events';

export interface RedisStreamSinkOptions {
  /** `redis://` or `rediss://`; it may hold a password, so it is never logged nor put in an error. */
  url: string;
  /** The stream is trimmed to about this many entries (`MAXLEN ~`: whole internal nodes, so a little more). */
  maxLength: number;
  streamKey?: string;
  /** The longest a publish waits for Redis, connecting included. */
  timeoutMs?: number;
  /** Under Sentinel: the host of `url` names the master group. */
  sentinels?: RedisSentinels;
  /** `url` names a node of a Redis Cluster. */
  cluster?: boolean;
}

const DEFAULT_TIMEOUT_MS = 5000;

/** Background reconnects: 100 ms after a loss, doubling to one every 2 s for as long as Redis stays away. */
function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** (attempt - 1), 2000);
}

/**
 * Adds each event to a Redis stream: fields `event` (the JSON body), `type` and `id`, so that a consumer can filter
 * without parsing. A batch is one MULTI/EXEC of XADDs: Redis appends all of it, in order, or none of it. The
 * connection is made on the first publish and made again in the background after a loss; while there is none, a
 * publish is refused at once.
 */
export class RedisStreamSink implements EventSink {
  readonly name = 'redis';
  private readonly redis: Redis;
  private readonly streamKey: string;
  private readonly maxLength: number;
  private readonly timeoutMs: number;
  /** Why the connection was last lost, for the rejection of a publish while Redis is away. */
  private lastError: Error | undefined;
  /** A connection that did not answer is being dropped: until its socket closes, it says ready but takes nothing. */
  private dropping = false;
  private closed = false;

  constructor(options: RedisStreamSinkOptions) {
    this.streamKey = options.streamKey ?? EVENTS_STREAM_KEY;
    this.maxLength = options.maxLength;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.redis = redisClient(
      options.url,
      {
        // Connects on the first publish: a sink that is never used opens nothing.
        lazyConnect: true,
        // Fail fast: a command while Redis is away is refused at once rather than queued for later.
        enableOfflineQueue: false,
        connectTimeout: this.timeoutMs,
        // Commands under way when the connection drops fail at once and are never sent again: the outbox retries.
        maxRetriesPerRequest: 0,
        autoResendUnfulfilledCommands: false,
        retryStrategy: reconnectDelay,
        // close() has already said QUIT when it could: what is left to end is a dead or dying socket.
        disconnectTimeout: 100,
        connectionName: 'shortlink-events',
      },
      options.sentinels,
      options.cluster,
    );
    // Without a listener, ioredis prints every failed attempt; the failure reaches the outbox as a rejection.
    this.redis.on('error', (error: Error) => {
      this.lastError = error;
    });
    this.redis.on('ready', () => {
      this.lastError = undefined;
    });
    this.redis.on('close', () => {
      this.dropping = false;
    });
  }

  async publish(events: readonly OutgoingEvent[]): Promise<void> {
    if (this.closed) throw new Error('The Redis event sink is closed');
    if (events.length === 0) return;
    try {
      await withDeadline(this.append(events), this.timeoutMs, 'Redis');
    } catch (error) {
      if (error instanceof BrokerTimeoutError) {
        this.drop();
        throw error;
      }
      // A command failed by a lost connection only says that it was flushed: the loss itself says why.
      if (this.redis.status !== 'ready' && this.lastError !== undefined) throw this.unreachable(error);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.redis.status === 'ready') {
      await withDeadline(this.redis.quit(), this.timeoutMs, 'Redis').catch(() => undefined);
    }
    if (this.redis.status !== 'end') this.redis.disconnect();
  }

  private async append(events: readonly OutgoingEvent[]): Promise<void> {
    await this.ready();
    const transaction = this.redis.multi();
    for (const event of events) {
      transaction.xadd(
        this.streamKey,
        'MAXLEN',
        '~',
        this.maxLength,
        '*',
        'event',
        event.body,
        'type',
        event.type,
        'id',
        event.id,
      );
    }
    const replies = await transaction.exec();
    if (replies === null) throw new Error('Redis discarded the transaction');
    if (replies.length !== events.length) {
      throw new Error(`Redis answered ${replies.length} of ${events.length} XADD commands`);
    }
    for (const [error, entryId] of replies) {
      if (error !== null) throw new Error(`Redis refused an event: ${error.message}`);
      if (typeof entryId !== 'string') throw new Error('Redis added no stream entry for an event');
    }
  }

  /** Resolves once the connection is ready: at once when it is, with a rejection at once while Redis is away. */
  private async ready(): Promise<void> {
    if (this.dropping) throw this.unreachable();
    switch (this.redis.status) {
      case 'ready':
        return;
      case 'reconnecting':
      case 'close':
        throw this.unreachable();
      case 'end':
      case 'wait':
        // Never connected, or given up on by ioredis itself: a new attempt, which the wait below follows.
        this.redis.connect().catch(() => undefined);
        break;
      case 'connecting':
      case 'connect':
        break;
    }
    await new Promise<void>((resolve, reject) => {
      const settle = (outcome: () => void) => () => {
        this.redis.off('ready', onReady);
        this.redis.off('close', onClose);
        outcome();
      };
      const onReady = settle(resolve);
      const onClose = settle(() => reject(this.unreachable()));
      this.redis.once('ready', onReady);
      this.redis.once('close', onClose);
    });
  }

  /**
   * Drops a connection that did not answer in time; ioredis makes another in the background. (Its own socketTimeout
   * would do it too, but its timer, left over from a lost connection, can end the next one.)
   */
  private drop(): void {
    this.lastError = new Error(`no answer within ${this.timeoutMs} ms`);
    this.dropping = this.redis.status === 'ready';
    this.redis.disconnect(true);
  }

  private unreachable(cause?: unknown): Error {
    const reason = this.lastError === undefined ? 'the connection is closed' : this.lastError.message;
    return new Error(`Redis is unreachable: ${reason}`, { cause });
  }
}
