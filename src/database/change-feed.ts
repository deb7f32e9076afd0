import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  Optional,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { Client, type Notification } from 'pg';
import { DATABASE_CONNECTION, type DatabaseConnection } from './database.module';
import { listen, notify } from './server.repository';

/** The channel on which triggers announce changes to links, their pixels and domains (see the migrations). */
export const VISIT_CACHE_CHANNEL = 'visit_cache';
/** A change whose extent is unknown: drop everything. */
export const EVERYTHING = '*';

/** The most a visit may be served from memory after a change is made: the promise of docs/OPERATIONS.md. */
export const FRESH_MS = 1000;

export interface ChangeFeedTiming {
  /** How often the instance notifies itself on the listening connection, to learn that it still hears. */
  probeEveryMs: number;
  /** A notice not heard back within this long means the connection is dead: it is dropped and made again. */
  probeDeadlineMs: number;
  /** The wait before connecting again after the connection was lost or could not be made. */
  reconnectMs: number;
  /** The wait before asking again a database that passed no notice from one connection to another. */
  deafRetryMs: number;
}

/** Probes well within {@link FRESH_MS}, so that a healthy feed is always trusted. */
export const DEFAULT_CHANGE_FEED_TIMING: ChangeFeedTiming = {
  probeEveryMs: 250,
  probeDeadlineMs: 2000,
  reconnectMs: 1000,
  deafRetryMs: 60_000,
};

export const CHANGE_FEED_TIMING = Symbol('CHANGE_FEED_TIMING');

/** Idle seconds before the kernel starts checking the listening connection. */
const KEEPALIVE_DELAY_MS = 10_000;

const NOT_ANNOUNCED = 'Changes are not announced across connections: links are read for every visit';

/**
 * Announcements of what changed, for the caches of every instance: `link:<domain id>:<alias>`, `domains`, or `*`.
 * They come from the database (triggers notify on commit, whoever wrote) and from this instance's own writes at
 * once, so that an instance reads its own writes.
 *
 * The listening connection can die without a word (a firewall or NAT that drops its packets): so the instance
 * notifies itself on it every `probeEveryMs`. A probe heard back proves that every change committed before it was
 * sent has been heard, so caches may serve from memory for {@link FRESH_MS} after that ({@link fresh}). A probe not
 * heard within `probeDeadlineMs` drops the connection and makes a new one. While the connection is down, or where
 * notices do not reach it (the embedded database), {@link listening} is false and caches must not serve from
 * memory; when it comes back, everything is dropped.
 */
@Injectable()
export class ChangeFeed implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChangeFeed.name);
  private readonly handlers = new Set<(change: string) => void>();
  private readonly timing: ChangeFeedTiming;
  private readonly instance = randomUUID();
  private client: Client | null = null;
  private closing = false;
  private reconnect: NodeJS.Timeout | null = null;
  private prober: NodeJS.Timeout | null = null;
  /** Probes sent and not heard yet, by payload: when each was sent. */
  private readonly probes = new Map<string, number>();
  private sequence = 0;
  /** Until when memory may be trusted: {@link FRESH_MS} after the send of the latest probe heard; 0 unheard. */
  private trustedUntil = 0;
  /** Whether the loss of the feed has been logged since it last worked. */
  private lossLogged = false;
  listening = false;

  constructor(
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
    @Optional() @Inject(CHANGE_FEED_TIMING) timing?: ChangeFeedTiming,
  ) {
    this.timing = timing ?? DEFAULT_CHANGE_FEED_TIMING;
  }

  /** Whether caches may answer from memory now: the feed listens and has been heard from within {@link FRESH_MS}. */
  get fresh(): boolean {
    return Date.now() < this.trustedUntil;
  }

  onApplicationBootstrap(): void {
    // One backend serves every connection of the embedded database and passes no notice between them.
    if (this.connection.embedded !== null) {
      this.logger.log(NOT_ANNOUNCED);
      return;
    }
    void this.connect();
  }

  /** Stops listening while the database is still open; it closes in the next phase (see DatabaseModule). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.reconnect !== null) clearTimeout(this.reconnect);
    this.reconnect = null;
    const client = this.client;
    this.drop();
    if (client !== null) await this.close(client);
  }

  subscribe(handler: (change: string) => void): void {
    this.handlers.add(handler);
  }

  /** Tells this instance's caches now; the database tells the others when the write commits. */
  publish(change: string): void {
    for (const handler of this.handlers) handler(change);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      ...this.clientOptions(),
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    });
    this.client = client;
    client.on('notification', (message) => this.heard(message));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await listen(client, VISIT_CACHE_CHANNEL);
      if (!(await this.hears(client))) {
        // The database or a pooler in front of it (PgBouncer in transaction mode) passes no notice between
        // sessions: a property of the set-up, not a passing fault, so it is asked again only much later.
        if (this.client === client) {
          this.warnOnce(`${NOT_ANNOUNCED}; asking again in ${this.timing.deafRetryMs / 1000} s`);
          this.lost(client, this.timing.deafRetryMs);
        }
        return;
      }
      if (this.client !== client) return;
      this.listening = true;
      this.trustedUntil = Date.now() + FRESH_MS;
      if (this.lossLogged) this.logger.log('Listening for changes again');
      this.lossLogged = false;
      // Whatever was cached while nobody listened may be stale.
      this.publish(EVERYTHING);
      this.prober = setInterval(() => this.probe(client), this.timing.probeEveryMs);
    } catch (error) {
      if (this.client !== client) return;
      this.warnOnce(`Not listening for changes: ${(error as Error).message}; links are read for every visit`);
      this.lost(client);
    }
  }

  private heard(message: Notification): void {
    const payload = message.payload ?? EVERYTHING;
    if (!payload.startsWith('probe:')) {
      this.publish(payload);
      return;
    }
    const sentAt = this.probes.get(payload);
    if (sentAt === undefined) return;
    // Probes are heard in the order they were sent: the ones before this one can no longer come.
    for (const probe of this.probes.keys()) {
      this.probes.delete(probe);
      if (probe === payload) break;
    }
    this.trustedUntil = sentAt + FRESH_MS;
  }

  /**
   * Notifies this instance on its own listening connection: heard back, it proves that every change committed
   * before it was sent has been heard (a listener receives notices in commit order). The oldest probe unheard past
   * the deadline means the connection is dead.
   */
  private probe(client: Client): void {
    if (this.client !== client) return;
    const oldest = this.probes.values().next();
    if (!oldest.done && Date.now() - oldest.value > this.timing.probeDeadlineMs) {
      this.warnOnce('The listening connection stopped answering: connecting again');
      this.lost(client);
      return;
    }
    this.sequence += 1;
    const payload = `probe:${this.instance}:${this.sequence}`;
    this.probes.set(payload, Date.now());
    notify(client, VISIT_CACHE_CHANNEL, payload).catch(() => this.lost(client));
  }

  /** Whether a notice sent on another connection reaches the listening one: what caching relies on. */
  private async hears(client: Client): Promise<boolean> {
    const probe = `probe:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    let listener: ((message: Notification) => void) | undefined;
    const heard = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timing.probeDeadlineMs);
      listener = (message: Notification) => {
        if (message.payload === probe) resolve(true);
      };
      client.on('notification', listener);
    });
    const sender = new Client(this.clientOptions());
    // A connection lost between statements says so as an event: without a listener it would end the process. The
    // awaited connect and query below reject with the same failure.
    sender.on('error', () => undefined);
    try {
      await sender.connect();
      await notify(sender, VISIT_CACHE_CHANNEL, probe);
      return await heard;
    } finally {
      clearTimeout(timer);
      client.off('notification', listener!);
      await sender.end().catch(() => undefined);
    }
  }

  /** A database that does not answer within the probe deadline is as good as gone: no connect or query waits longer. */
  private clientOptions() {
    const deadline = this.timing.probeDeadlineMs;
    return {
      // A session of its own: through a pool in transaction mode, LISTEN would hear nothing.
      connectionString: this.connection.sessionUrl,
      connectionTimeoutMillis: deadline,
      query_timeout: deadline,
    };
  }

  /** Forgets the current connection and stops trusting memory; caches drop what they hold. */
  private drop(): void {
    if (this.prober !== null) clearInterval(this.prober);
    this.prober = null;
    this.probes.clear();
    this.client = null;
    this.listening = false;
    this.trustedUntil = 0;
    this.publish(EVERYTHING);
  }

  /** The current connection is lost (or useless): drops it and connects again once, after `delayMs`. */
  private lost(client: Client, delayMs = this.timing.reconnectMs): void {
    if (this.client !== client) return;
    this.drop();
    void this.close(client);
    if (this.closing || this.reconnect !== null) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.connect();
    }, delayMs);
  }

  /**
   * Ends a connection, and destroys its socket if the end is not acknowledged within the probe deadline: a
   * connection whose packets are dropped never answers.
   */
  private async close(client: Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const ended = client.end().catch(() => undefined);
    const deadline = new Promise<'late'>((resolve) => {
      // Only a bound on a connection already given up: it keeps no process alive.
      timer = setTimeout(() => resolve('late'), this.timing.probeDeadlineMs).unref();
    });
    if ((await Promise.race([ended, deadline])) === 'late') {
      // pg keeps its socket as `connection.stream`, with no public way to drop it.
      (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
    }
    clearTimeout(timer);
  }

  /** Logs the loss of the feed once until it works again, not at every attempt. */
  private warnOnce(message: string): void {
    if (this.lossLogged) return;
    this.lossLogged = true;
    this.logger.warn(message);
  }
}

@Global()
@Module({ providers: [ChangeFeed], exports: [ChangeFeed] })
export class ChangeFeedModule {}
