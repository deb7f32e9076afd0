import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/**
 * The data source of the TypeORM CLI (`npm run migration:generate`), which needs a real PostgreSQL server:
 * it compares the entities with the schema that `DATABASE_URL` points at.
 */
const url = process.env.DATABASE_URL;
if (url === undefined || url === '') {
  throw new Error(
    'migration:generate needs DATABASE_URL: a PostgreSQL database migrated to the latest schema',
  );
}
export default new DataSource(dataSourceOptions(url));
