import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';
import { redisAddress, withoutSecrets } from './redis-connection';

/** Where a limit check is counted. */
export enum LimitsStore {
  /** One Redis, shared by every instance that uses it. */
  Redis = 'redis',
  /** This instance's memory alone. */
  Memory = 'memory',
}

/** How long a start waits for Redis to answer before it serves with the limits in memory. */
const START_WAIT_MS = 1_000;

/** How often, while Redis is taken for down on a connection still open, a PING asks whether it answers. */
const PROBE_MS = 1_000;

/** How long a stop waits for Redis to take the QUIT before it closes the connection anyway. */
const QUIT_WAIT_MS = 1_000;

/**
 * The Redis of the limits (REDIS_URL), and whether it answers. Any failure (refused, unreachable, slower than
 * REDIS_TIMEOUT_MS, an error reply) makes it count as down: every limit is counted in this instance's memory from
 * then until Redis answers again, so that an outage costs no request more than one timeout. One warning says when
 * an outage begins and one line when it ends; `shortlink_limits_store` says where the limits are counted now. With
 * no REDIS_URL there is no client, and the limits are in memory for good.
 */
export class LimitsRedis implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Limits');
  private answeringNow = false;
  /** Whether this outage has been told (the start counts as one until Redis first answers). */
  private warned = false;
  /** Whether Redis has ever answered: its first answer is news of the start, later ones a return. */
  private answeredOnce = false;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;
  private readonly fallbacks: Counter;

  constructor(
    /** The client; null without REDIS_URL. */
    readonly client: Redis | null,
    /** The URL it was made from: kept only to keep it, and its password, out of what is logged. */
    private readonly url: string,
    registry: Registry,
  ) {
    client?.on('ready', () => this.answers());
    client?.on('error', (error: unknown) => this.failed(error));
    client?.on('close', () => this.failed(new Error('the connection closed')));

    const stores = new Gauge({
      name: 'shortlink_limits_store',
      help: 'Where the limits are counted now: 1 for redis (shared by the instances) or for memory (this one alone).',
      labelNames: ['store'] as const,
      registers: [registry],
      collect: () => {
        for (const store of [LimitsStore.Redis, LimitsStore.Memory]) {
          stores.labels(store).set(store === this.store ? 1 : 0);
        }
      },
    });
    this.fallbacks = new Counter({
      name: 'shortlink_limits_memory_fallbacks_total',
      help: "Limit checks counted in this instance's memory because the Redis of REDIS_URL did not answer.",
      registers: [registry],
    });
  }

  /** Whether checks go to Redis: not before it first answers, nor from a failure until it answers again. */
  get answering(): boolean {
    return this.answeringNow;
  }

  /** Where the next check will be counted. */
  get store(): LimitsStore {
    return this.answeringNow ? LimitsStore.Redis : LimitsStore.Memory;
  }

  /** A check that Redis should have counted was counted in memory. */
  countedInMemory(): void {
    if (this.client !== null) this.fallbacks.inc();
  }

  /** Redis did not answer: checks are counted in memory until it does; the first failure of an outage is told. */
  failed(error: unknown): void {
    if (this.closed || this.client === null) return;
    this.answeringNow = false;
    if (!this.warned) {
      this.warned = true;
      this.logger.warn(
        `Redis at ${redisAddress(this.url)} does not answer (${withoutSecrets(error, this.url)}): each ` +
          'instance counts the limits in its own memory until it does',
      );
    }
    this.startProbe();
  }

  /** Waits a moment at the start, so that the first requests are counted where every instance counts them. */
  async onModuleInit(): Promise<void> {
    const client = this.client;
    // Answering already, or known to be down: nothing to wait for.
    if (client === null || this.answeringNow || this.warned) return;
    let settle: () => void = () => undefined;
    const timer = setTimeout(() => settle(), START_WAIT_MS);
    await new Promise<void>((resolve) => {
      settle = resolve;
      client.once('ready', resolve);
      client.once('error', resolve);
    });
    clearTimeout(timer);
    client.off('ready', settle);
    client.off('error', settle);
    if (!this.answeringNow) this.failed(new Error(`no answer within ${START_WAIT_MS} ms of the start`));
  }

  /** Closes the connection; the application calls this once the HTTP server has drained. */
  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopProbe();
    const client = this.client;
    if (client === null) return;
    this.answeringNow = false;
    if (client.status !== 'ready') {
      // Not connected: this stops the attempts to connect again.
      client.disconnect();
      return;
    }
    // QUIT lets Redis answer what was sent before it, then closes the connection; one that cannot take it is closed.
    const ended = new Promise<void>((resolve) => client.once('end', resolve));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIT_WAIT_MS)));
    await Promise.race([client.quit().catch(() => undefined), waited]);
    client.disconnect();
    await Promise.race([ended, waited]);
    clearTimeout(timer);
  }

  private answers(): void {
    if (this.closed) return;
    this.stopProbe();
    this.answeringNow = true;
    const address = redisAddress(this.url);
    if (!this.answeredOnce) {
      this.logger.log(`Limits are counted in Redis at ${address}, shared by every instance that uses it`);
    } else if (this.warned) {
      this.logger.log(`Redis at ${address} answers again: the limits are shared again`);
    }
    this.answeredOnce = true;
    this.warned = false;
  }

  /**
   * Asks Redis, every PROBE_MS, whether it answers on a connection that is still open (one that stalls rather than
   * closes sends no event); a PING without an answer in time has the client open a new connection. A connection
   * that closed is opened again by the client itself, whose `ready` ends the outage.
   */
  private startProbe(): void {
    const client = this.client;
    if (this.probe !== undefined || client === null) return;
    this.probe = setInterval(() => {
      if (this.probing || client.status !== 'ready') return;
      this.probing = true;
      client
        .ping()
        .then(
          () => this.answers(),
          () => {
            if (!this.closed) client.disconnect(true);
          },
        )
        .finally(() => (this.probing = false));
    }, PROBE_MS);
    this.probe.unref();
  }

  private stopProbe(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }
}
