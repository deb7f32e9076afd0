import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { ConstraintNames } from './constraint-names';
import { DiscardingClient } from './discarding-client';

/**
 * Entities and migrations are found by their file names, so that adding one edits no list: a feature's
 * `*.entity` files (which its module also registers with `TypeOrmModule.forFeature`, for the app), and the
 * timestamped files of `migrations/`, run in the order of their timestamps. The sources under a test runner, the
 * build in production.
 */
export const ENTITY_FILES = join(__dirname, '..', '**', '*.entity.{js,ts}');
export const MIGRATION_FILES = join(__dirname, 'migrations', '[0-9]*-*.{js,ts}');

/**
 * How long the client waits for an answer beyond the statement timeout before it gives up on the connection: time
 * for the server's own cancellation (SQLSTATE 57014) to arrive, which leaves the connection usable.
 */
export const CLIENT_TIMEOUT_GRACE_MS = 1000;

/** Idle time before the kernel starts probing a pooled connection. */
const KEEPALIVE_DELAY_MS = 10_000;

/** Bounds on the database work of one request; each unset one keeps the driver's behaviour noted. */
export interface DatabaseLimits {
  /**
   * The server cancels a statement running longer (`statement_timeout`); the client gives up
   * {@link CLIENT_TIMEOUT_GRACE_MS} later, which also covers a database or network that stopped answering, and
   * closes that connection. Unset: no bound, for migrations and one-off commands.
   */
  statementTimeoutMs?: number;
  /** Bound on the wait for a pooled connection, the set-up of a new one included. Unset: 5 s. */
  poolTimeoutMs?: number;
  /** Connections in the pool. Unset: 10. */
  poolSize?: number;
  /**
   * Connections kept open however long they stay unused, at most `poolSize`; the others close after 10 s unused.
   * Unset: none kept (one-off commands end without waiting for them).
   */
  poolMin?: number;
}

/** The one description of the database, used by the app, the CLI, the tests and the TypeORM migration CLI. */
export function dataSourceOptions(url: string, limits: DatabaseLimits = {}): DataSourceOptions {
  const { statementTimeoutMs } = limits;
  return {
    type: 'postgres',
    url,
    entities: [ENTITY_FILES],
    migrations: [MIGRATION_FILES],
    migrationsTableName: 'migrations',
    namingStrategy: new ConstraintNames(),
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: limits.poolSize ?? 10,
      // pg-pool closes connections unused for 10 s down to `min`: after a quiet spell, a burst would otherwise pay
      // for a connection, its authentication and its prepared statements before its first statement.
      min: Math.min(limits.poolMin ?? 0, limits.poolSize ?? 10),
      // Fail fast when the database is away, so callers get a 503 instead of a hung request. pg-pool applies it to
      // the wait for a free connection as well as to connecting.
      connectionTimeoutMillis: limits.poolTimeoutMs ?? 5000,
      statement_timeout: statementTimeoutMs,
      query_timeout:
        statementTimeoutMs === undefined ? undefined : statementTimeoutMs + CLIENT_TIMEOUT_GRACE_MS,
      Client: DiscardingClient,
      // A pooled connection whose server vanished without a word (a machine lost in a failover, a dropped network)
      // is found dead by the kernel's probes while it sits idle, rather than by the next request's timeout.
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    },
  };
}
