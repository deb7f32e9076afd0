import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns } from './sql/tables';

/** Every scope there is when this runs: the keys made before scopes could do everything, and keep doing it. */
export const ALL_SCOPES = (
  'account.read links.read links.write spaces.read spaces.write domains.read domains.write pixels.read pixels.write ' +
  'stats.read webhooks.read webhooks.write keys.read keys.write'
).split(' ');

/**
 * Keys with a name, scopes, a space restriction and an expiry (contract §9). Existing keys become full keys named
 * after their id; their prefix is unknown (only their hash was kept), so it stays null.
 */
export class KeyScopes1765000000000 implements MigrationInterface {
  name = 'KeyScopes1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      addColumns('api_keys', [
        '"name" character varying(100)',
        '"prefix" character varying(8)',
        '"scopes" text array',
        '"space_ids" integer array',
        '"expires_at" TIMESTAMP WITH TIME ZONE',
        '"last_used_at" TIMESTAMP WITH TIME ZONE',
        '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
      ]),
    );
    await queryRunner.query(`UPDATE "api_keys" SET "name" = 'Key ' || "id", "scopes" = $1`, [ALL_SCOPES]);
    await queryRunner.query(`
      ALTER TABLE "api_keys"
        ALTER "name" SET NOT NULL,
        ALTER "scopes" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "api_keys"
        DROP "name", DROP "prefix", DROP "scopes", DROP "space_ids", DROP "expires_at", DROP "last_used_at",
        DROP "updated_at"`);
  }
}
