import { Injectable } from '@nestjs/common';
import { DataSource, type Migration } from 'typeorm';
import { withAdvisoryLock } from './server.repository';

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
    return await withAdvisoryLock(runner, MIGRATION_LOCK_ID, () =>
      dataSource.runMigrations({ transaction: 'each' }),
    );
  } finally {
    await runner.release();
  }
}

/** The migrations of the database the module opened: what the migration commands run, revert and show. */
@Injectable()
export class Migrations {
  constructor(private readonly dataSource: DataSource) {}

  /** Applies the pending migrations; the names of those applied, in order. */
  async run(): Promise<string[]> {
    return (await runMigrations(this.dataSource)).map((migration) => migration.name);
  }

  /** Undoes the last migration applied. */
  revert(): Promise<void> {
    return this.dataSource.undoLastMigration({ transaction: 'each' });
  }

  /** Whether any migration is pending. */
  pending(): Promise<boolean> {
    return this.dataSource.showMigrations();
  }
}
