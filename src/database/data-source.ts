import { DataSource } from 'typeorm';
import { databaseConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';

/**
 * The data source of the TypeORM CLI (`npm run migration:generate`), which needs a real PostgreSQL server:
 * it compares the entities with the schema that `DATABASE_URL` points at (with `DATABASE_PASSWORD`, if set).
 */
const url = databaseConfig.from(process.env).databaseUrl;
if (url === undefined) {
  throw new Error(
    'migration:generate needs DATABASE_URL: a PostgreSQL database migrated to the latest schema',
  );
}
export default new DataSource(dataSourceOptions(url));
