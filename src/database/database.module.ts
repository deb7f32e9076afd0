import {
  Global,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { databaseConfig, type DatabaseConfig } from '../config/app-config';
import { dataSourceOptions, type DatabaseLimits } from './data-source-options';
import { openEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';
import { Migrations, runMigrations } from './migrate';
import { RecentOutage } from './recent-outage';

export const DATABASE_CONNECTION = Symbol('DATABASE_CONNECTION');

export interface DatabaseConnection {
  /** The app's pool: PostgreSQL itself, or a pool in front of it (in transaction mode, even). */
  url: string;
  /** For what needs a session of its own: listening for changes, the migrations' lock. */
  sessionUrl: string;
  /** Read replicas streaming from `url`'s server; none with the embedded database. */
  replicaUrls: string[];
  embedded: EmbeddedDatabase | null;
}

export interface DatabaseModuleOptions {
  /**
   * With the embedded database: connect to the one another process of this service already serves (the CLI
   * beside a running server) instead of refusing to start.
   */
  shareEmbedded: boolean;
  /** Attempts to connect (and migrate) before giving up, 3 s apart; TypeORM's default (9) when unset. */
  retryAttempts?: number;
  /**
   * Whether pending migrations are applied before anything uses the database (the default). Without, the data
   * source is the migrations' own (no statement timeout, nothing applied): the migration commands decide.
   */
  migrateAtStart?: boolean;
}

/** Where the database is: `DATABASE_URL`, or the embedded database under `DATA_DIR`. Owns the embedded one's life. */
@Global()
@Module({})
export class DatabaseConnectionModule implements OnApplicationShutdown {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseConnectionModule,
      providers: [
        {
          provide: DATABASE_CONNECTION,
          inject: [databaseConfig.KEY],
          useFactory: async (config: DatabaseConfig): Promise<DatabaseConnection> => {
            if (config.databaseUrl !== undefined) {
              return {
                url: config.databaseUrl,
                sessionUrl: config.sessionUrl ?? config.databaseUrl,
                replicaUrls: config.replicaUrls,
                embedded: null,
              };
            }
            const logger = new Logger('EmbeddedDatabase');
            const embedded = await openEmbeddedDatabase(config.dataDir, {
              allowShared: options.shareEmbedded,
              sharedBuffersMb: config.embeddedSharedBuffersMb,
              optimizeWasm: config.embeddedOptimizeWasm,
              log: (message) => logger.warn(message),
            });
            if (embedded.owner) logger.log(`Embedded database open in ${config.dataDir}`);
            return { url: embedded.url, sessionUrl: embedded.url, replicaUrls: [], embedded };
          },
        },
        RecentOutage,
      ],
      exports: [DATABASE_CONNECTION, RecentOutage],
    };
  }

  constructor(
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
    private readonly moduleRef: ModuleRef,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.connection.embedded === null) return;
    // This module is deeper than TypeORM's, so its hook runs first: close the pool before the database under it.
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource.isInitialized) await dataSource.destroy();
    await this.connection.embedded.close();
  }
}

/**
 * TypeORM on the configured database, migrated to the latest schema before anything uses it; and the migrations
 * themselves ({@link Migrations}), for the commands that run, revert and show them.
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions = { shareEmbedded: false }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [options.migrateAtStart === false ? migrationsDataSource(options) : appDataSource(options)],
      providers: [Migrations],
      exports: [Migrations],
    };
  }
}

/** The data source of the migration commands: found by file name, as the TypeORM CLI's, and migrated by them. */
function migrationsDataSource(options: DatabaseModuleOptions): DynamicModule {
  return TypeOrmModule.forRootAsync({
    imports: [DatabaseConnectionModule.forRoot(options)],
    inject: [DATABASE_CONNECTION],
    // Migrations hold a session lock: over the session URL, never through a pool in transaction mode.
    useFactory: (connection: DatabaseConnection) => ({
      ...dataSourceOptions(connection.sessionUrl),
      retryAttempts: options.retryAttempts,
    }),
  });
}

/** The request limits of the settings, for the app's pools: the primary's and each replica's. */
export function databaseLimits(config: DatabaseConfig): DatabaseLimits {
  return {
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    poolTimeoutMs: config.databasePoolTimeoutMs,
    poolSize: config.databasePoolSize,
    poolMin: config.databasePoolMin,
  };
}

/** The app's: the request limits of the settings, the entities its modules register, migrated before first use. */
function appDataSource(options: DatabaseModuleOptions): DynamicModule {
  // Where the migrations run, learnt with the connection before the data source is made.
  let sessionUrl: string | undefined;
  return TypeOrmModule.forRootAsync({
    imports: [DatabaseConnectionModule.forRoot(options)],
    inject: [DATABASE_CONNECTION, databaseConfig.KEY],
    useFactory: (connection: DatabaseConnection, config: DatabaseConfig) => {
      sessionUrl = connection.sessionUrl;
      return {
        ...dataSourceOptions(connection.url, databaseLimits(config)),
        retryAttempts: options.retryAttempts,
        // The app's entities are those its modules register (TypeOrmModule.forFeature).
        entities: [],
        autoLoadEntities: true,
      };
    },
    dataSourceFactory: async (options) => {
      // A migration may rightly run for minutes (an index on a large table): it gets a connection of its own,
      // without the statement timeout meant for requests, over the session URL (it holds a session lock).
      const { url } = options as PostgresDataSourceOptions;
      const migrator = await new DataSource(dataSourceOptions(sessionUrl ?? url!)).initialize();
      try {
        await runMigrations(migrator);
      } finally {
        await migrator.destroy();
      }
      return new DataSource(options!).initialize();
    },
  });
}
