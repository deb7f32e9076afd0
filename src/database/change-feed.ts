import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client, type Notification } from 'pg';
import { DATABASE_CONNECTION, type DatabaseConnection } from './database.module';

/** The channel on which triggers announce changes to links, their pixels and domains (see the migrations). */
export const VISIT_CACHE_CHANNEL = 'visit_cache';
/** A change whose extent is unknown: drop everything. */
export const EVERYTHING = '*';

const RECONNECT_MS = 1000;
const PROBE_TIMEOUT_MS = 2000;

/**
 * Announcements of what changed, for the caches of every instance: `link:<domain id>:<alias>`, `domains`, or `*`.
 * They come from the database (triggers notify on commit, whoever wrote) and from this instance's own writes at
 * once, so that an instance reads its own writes. While the listening connection is down, or where notices do not
 * reach it (the embedded database), {@link listening} is false and caches must not serve from memory; when it
 * comes back, everything is dropped.
 */
@Injectable()
export class ChangeFeed implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChangeFeed.name);
  private readonly handlers = new Set<(change: string) => void>();
  private client: Client | null = null;
  private closing = false;
  private reconnect: NodeJS.Timeout | null = null;
  listening = false;

  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {}

  onApplicationBootstrap(): void {
    void this.connect();
  }

  /** Stops listening while the database is still open; it closes in the next phase (see DatabaseModule). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.reconnect !== null) clearTimeout(this.reconnect);
    this.listening = false;
    await this.client?.end().catch(() => undefined);
  }

  subscribe(handler: (change: string) => void): void {
    this.handlers.add(handler);
  }

  /** Tells this instance's caches now; the database tells the others when the write commits. */
  publish(change: string): void {
    for (const handler of this.handlers) handler(change);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.connection.url });
    this.client = client;
    client.on('notification', (message) => {
      if (!message.payload?.startsWith('probe:')) this.publish(message.payload ?? EVERYTHING);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${VISIT_CACHE_CHANNEL}`);
      if (!(await this.hears(client))) {
        // The embedded database has one backend for every connection: notices do not cross between them.
        this.logger.log('Changes are not announced across connections: links are read for every visit');
        await client.end().catch(() => undefined);
        this.client = null;
        return;
      }
      this.listening = true;
      // Whatever was cached while nobody listened may be stale.
      this.publish(EVERYTHING);
    } catch (error) {
      this.logger.warn(`Not listening for changes yet: ${(error as Error).message}`);
      this.lost(client);
    }
  }

  /** Whether a notice sent on another connection reaches the listening one: what caching relies on. */
  private async hears(client: Client): Promise<boolean> {
    const probe = `probe:${randomUUID()}`;
    const heard = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
      const listener = (message: Notification) => {
        if (message.payload !== probe) return;
        clearTimeout(timer);
        client.off('notification', listener);
        resolve(true);
      };
      client.on('notification', listener);
    });
    const sender = new Client({ connectionString: this.connection.url });
    try {
      await sender.connect();
      await sender.query('SELECT pg_notify($1, $2)', [VISIT_CACHE_CHANNEL, probe]);
    } finally {
      await sender.end().catch(() => undefined);
    }
    return heard;
  }

  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = false;
    this.publish(EVERYTHING);
    void client.end().catch(() => undefined);
    if (this.closing) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.connect();
    }, RECONNECT_MS);
  }
}

@Global()
@Module({ providers: [ChangeFeed], exports: [ChangeFeed] })
export class ChangeFeedModule {}
