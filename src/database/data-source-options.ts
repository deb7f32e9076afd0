import type { DataSourceOptions } from 'typeorm';
import { Account } from '../auth/account.entity';
import { ApiKey } from '../auth/api-key.entity';
import { Domain } from '../domains/domain.entity';
import { LinkPixel } from '../links/link-pixel.entity';
import { LinkCounter } from '../links/link-counter.entity';
import { Link } from '../links/link.entity';
import { Pixel } from '../pixels/pixel.entity';
import { Space } from '../spaces/space.entity';
import { Click } from '../stats/click.entity';
import { migrations } from './migrations';

export const ENTITIES = [Account, ApiKey, Space, Domain, Pixel, Link, LinkCounter, LinkPixel, Click];

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
