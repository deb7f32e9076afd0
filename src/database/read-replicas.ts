import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type Redis from 'ioredis';
import { from, mergeMap, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { databaseUnavailability } from '../common/database-errors';
import { connectRedis } from '../common/redis-server';
import { databaseConfig, limitsConfig, type DatabaseConfig, type LimitsConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { DATABASE_CONNECTION, databaseLimits, type DatabaseConnection } from './database.module';
import { replayPosition, writePosition } from './server.repository';

/** How often the primary's position and each replica's are read: the lag is known to within this. */
export const REPLICA_CHECK_MS = 200;
/** How long the primary's positions are kept, to tell how far back a replica is. */
const HISTORY_MS = 10 * 60_000;
/** How long an account's last write position is kept in Redis: far longer than any replica may lag and be read. */
const WRITE_MARK_TTL_MS = 10 * 60_000;
/** The longest a read waits for Redis to say where its account last wrote; past it, the primary answers. */
const WRITE_MARK_TIMEOUT_MS = 200;

/** A position in the write-ahead log (`16/B374D848`) as a number that compares as positions do. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** The primary's positions over time, oldest first: what a replica's position says about its lag. */
export class WalHistory {
  private readonly samples: { at: number; lsn: bigint }[] = [];

  add(at: number, lsn: bigint): void {
    this.samples.push({ at, lsn });
    while (this.samples.length > 1 && this.samples[0].at < at - HISTORY_MS) this.samples.shift();
  }

  /**
   * The latest time at which the primary had written no more than `replayed`: everything committed by then is on a
   * replica that has replayed that far. Null when the replica is behind every position kept.
   */
  caughtUpTo(replayed: bigint): number | null {
    for (let index = this.samples.length - 1; index >= 0; index -= 1) {
      if (this.samples[index].lsn <= replayed) return this.samples[index].at;
    }
    return null;
  }
}

interface Replica {
  url: string;
  source: DataSource | null;
  /** Everything the primary had committed by this time is on this replica; 0 while unknown or down. */
  caughtUpTo: number;
  /** The position it had replayed at the last check: everything written up to it is there. */
  replayed: bigint;
  /** When `caughtUpTo` was last learnt: a replica not heard from lately is not read from. */
  checkedAt: number;
}

/**
 * Where reads that may be a moment behind go (stats, lists, exports, the public stats page): a read replica of
 * `DATABASE_REPLICA_URL` when one is close enough behind the primary, the primary otherwise.
 *
 * Every {@link REPLICA_CHECK_MS} the primary's write position is read and kept with its time, and each replica's
 * replayed position: a replica has everything the primary had committed at the latest kept time whose position it
 * has replayed ({@link WalHistory}). A replica is read from while that time is within `REPLICA_MAX_LAG_MS` of now
 * and, for an account that wrote through this instance, later than its last write (read-your-writes); a read that
 * finds the replica away is made again on the primary, and the replica is left alone until it answers a check.
 *
 * With Redis (`REDIS_URL`), read-your-writes holds across instances: after each API write the instance stores the
 * primary's write position in Redis under the account, before the answer leaves, and a read of that account on any
 * instance takes a replica only when it has replayed that far (positions, not clocks: instances' clocks differ).
 * Measured from positions, not from `pg_last_xact_replay_timestamp()`, which grows on an idle primary as if the
 * replica fell behind.
 */
@Injectable()
export class ReadReplicas implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReadReplicas.name);
  private readonly replicas: Replica[];
  private readonly history = new WalHistory();
  /** The time of each account's last write through this instance, for the accounts that wrote lately. */
  private readonly writes = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  private next = 0;
  /** Where each account last wrote, shared by the instances; null without Redis or replicas. */
  private readonly marks: Redis | null;

  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    @Inject(DATABASE_CONNECTION) connection: DatabaseConnection,
    @Inject(databaseConfig.KEY) private readonly config: DatabaseConfig,
    @Inject(limitsConfig.KEY) redis: LimitsConfig,
  ) {
    this.replicas = connection.replicaUrls.map((url) => ({
      url,
      source: null,
      caughtUpTo: 0,
      replayed: 0n,
      checkedAt: 0,
    }));
    this.marks =
      this.replicas.length === 0 || redis.redisUrl === undefined
        ? null
        : connectRedis({
            ...redis,
            redisUrl: redis.redisUrl,
            redisKeyPrefix: `${redis.redisKeyPrefix}wrote:`,
            redisTimeoutMs: WRITE_MARK_TIMEOUT_MS,
          });
    // A Redis away means reads of accounts that wrote go to the primary: nothing to report at every attempt.
    this.marks?.on('error', () => undefined);
  }

  onApplicationBootstrap(): void {
    if (this.replicas.length === 0) return;
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_MS);
    this.timer.unref();
    void this.check();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.marks?.disconnect();
    await Promise.all(
      this.replicas.map((replica) => replica.source?.destroy().catch(() => undefined) ?? Promise.resolve()),
    );
  }

  /** Whether any replica is configured: without, every read is the primary's and no write needs marking. */
  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  /** Marks a write by `accountId` just made: its reads on this instance go to the primary until a replica has it. */
  wrote(accountId: number): void {
    if (this.replicas.length > 0) this.writes.set(accountId, Date.now());
  }

  /**
   * Marks a write by `accountId` that has committed, for every instance: the primary's write position now, which is
   * past the write's, stored in Redis. Failing that, the instance's own mark still holds.
   */
  async committed(accountId: number): Promise<void> {
    this.wrote(accountId);
    if (this.marks === null) return;
    try {
      await this.marks.set(String(accountId), await writePosition(this.primary), 'PX', WRITE_MARK_TTL_MS);
    } catch {
      // Redis or the primary is away: reads on other instances may be up to REPLICA_MAX_LAG_MS behind.
    }
  }

  /** The rows of a read that may be a moment behind, for `accountId` (null: no account's own writes matter). */
  async query<T>(accountId: number | null, sql: string, values?: unknown[]): Promise<T> {
    const replica = await this.replicaFor(accountId);
    if (replica === null) return this.primary.query<T>(sql, values);
    try {
      return await replica.source!.query<T>(sql, values);
    } catch (error) {
      if (databaseUnavailability(error) === null) throw error;
      this.lost(replica, error);
      return this.primary.query<T>(sql, values);
    }
  }

  /** The data source to read from for `accountId`: a replica's, or the primary's (for a cursor). */
  async sourceFor(accountId: number | null): Promise<DataSource> {
    return (await this.replicaFor(accountId))?.source ?? this.primary;
  }

  /** A replica whose data is recent enough for `accountId`, taking turns among them; null for the primary. */
  private async replicaFor(accountId: number | null): Promise<Replica | null> {
    if (this.replicas.length === 0) return null;
    const now = Date.now();
    const wrote = accountId === null ? 0 : (this.writes.get(accountId) ?? 0);
    const recent = this.replicas.filter(
      (replica) =>
        replica.source !== null &&
        now - replica.checkedAt <= 5 * REPLICA_CHECK_MS &&
        now - replica.caughtUpTo <= this.config.replicaMaxLagMs &&
        replica.caughtUpTo > wrote,
    );
    if (recent.length === 0) return null;
    const mark = accountId === null ? null : await this.writtenAt(accountId);
    if (mark === undefined) return null;
    const fit = recent.filter((replica) => mark === null || replica.replayed >= mark);
    if (fit.length === 0) return null;
    this.next = (this.next + 1) % fit.length;
    return fit[this.next];
  }

  /**
   * Where the account last wrote, as any instance stored it: null when nowhere lately (or no Redis is set),
   * undefined when Redis did not say (the primary must answer).
   */
  private async writtenAt(accountId: number): Promise<bigint | null | undefined> {
    if (this.marks === null) return null;
    try {
      const lsn = await this.marks.get(String(accountId));
      return lsn === null ? null : lsnValue(lsn);
    } catch {
      return undefined;
    }
  }

  /** One round: the primary's position, then each replica's; the writes every replica read from has are forgotten. */
  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      this.history.add(Date.now(), lsnValue(await writePosition(this.primary)));
      await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
      // A write older than the lag allowed is on every replica that may be read from.
      const settled = Date.now() - this.config.replicaMaxLagMs;
      for (const [accountId, at] of this.writes) if (at < settled) this.writes.delete(accountId);
    } catch {
      // The primary is away: no position to compare with, so no replica is known to be recent enough.
    } finally {
      this.checking = false;
    }
  }

  private async checkReplica(replica: Replica): Promise<void> {
    try {
      replica.source ??= await this.open(replica.url);
      const row = await replayPosition(replica.source);
      // A server not in recovery is no replica (a promoted one, or a wrong URL): its data may have forked.
      if (!row.recovering || row.lsn === null) {
        this.lost(replica, new Error('not a streaming replica'));
        return;
      }
      const replayed = lsnValue(row.lsn);
      const caughtUpTo = this.history.caughtUpTo(replayed);
      if (replica.caughtUpTo === 0 && caughtUpTo !== null) this.logger.log('Reading from a replica');
      replica.caughtUpTo = caughtUpTo ?? 0;
      replica.replayed = replayed;
      replica.checkedAt = Date.now();
    } catch (error) {
      this.lost(replica, error);
    }
  }

  private async open(url: string): Promise<DataSource> {
    const source = new DataSource({
      ...dataSourceOptions(url, databaseLimits(this.config)),
      entities: [],
      migrations: [],
    });
    return source.initialize();
  }

  /** Stops reading from `replica` until a check finds it recent again. */
  private lost(replica: Replica, error: unknown): void {
    if (replica.caughtUpTo !== 0) {
      const reason = databaseUnavailability(error) === null ? (error as Error).message : 'unreachable';
      this.logger.warn(`Not reading from a replica (${reason}): the primary answers`);
    }
    replica.caughtUpTo = 0;
  }
}

/** Tells {@link ReadReplicas} of each API request that may have changed something, once its handler is done. */
@Injectable()
export class ReplicaWritesInterceptor implements NestInterceptor {
  constructor(private readonly replicas: ReadReplicas) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request & { user?: { account?: { id: number } } }>();
    const accountId = request.user?.account?.id;
    if (
      !this.replicas.enabled ||
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      accountId === undefined
    )
      return next.handle();
    // Before, for the reads that start while the write is under way; after it committed and before its answer
    // leaves, for every read the client makes once it has the answer, on any instance.
    this.replicas.wrote(accountId);
    return next
      .handle()
      .pipe(mergeMap((answer: unknown) => from(this.replicas.committed(accountId).then(() => answer))));
  }
}

@Global()
@Module({ providers: [ReadReplicas], exports: [ReadReplicas] })
export class ReadReplicasModule {}
