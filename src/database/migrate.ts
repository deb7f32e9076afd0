import type { DataSource, Migration } from 'typeorm';

/** Any constant works; it only has to be the same in every instance of this service. */
const MIGRATION_LOCK_ID = 725_191_001;

/**
 * Runs pending migrations, one instance at a time: replicas starting together would otherwise race to apply the
 * same migration. The lock is a session advisory lock, released even when a migration fails.
 */
export async function runMigrations(dataSource: DataSource): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await runner.release();
  }
}
