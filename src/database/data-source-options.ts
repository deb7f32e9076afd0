import type { DataSourceOptions } from 'typeorm';
import { Account } from '../auth/account.entity';
import { ApiKey } from '../auth/api-key.entity';
import { Space } from '../spaces/space.entity';
import { migrations } from './migrations';

export const ENTITIES = [Account, ApiKey, Space];

/** The one description of the database, used by the app, the CLI, the tests and the TypeORM migration CLI. */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: 10,
      // Fail fast when the database is away, so callers get a 503 instead of a hung request.
      connectionTimeoutMillis: 5000,
    },
  };
}
