import type { MigrationInterface, QueryRunner } from 'typeorm';
import { numberedTable, tokenIndexes } from './sql/tables';

/**
 * Sessions of the dashboard: an API key exchanged once for a cookie. Only the SHA-256 of the cookie's token is
 * stored; a session ends at its own expiry, when its key is revoked or expires (the lookup joins the key), or when
 * it is signed out (its row deleted). Removing a key's row removes its sessions.
 */
export class DashboardSessions1765200000000 implements MigrationInterface {
  name = 'DashboardSessions1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      numberedTable(
        'api_sessions',
        [
          '"token_hash" character(64) NOT NULL',
          '"key_id" integer NOT NULL',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"expires_at" TIMESTAMP WITH TIME ZONE NOT NULL',
        ],
        { key_id: 'api_keys' },
      ),
    );
    for (const statement of tokenIndexes('api_sessions', 'key', ['key_id']))
      await queryRunner.query(statement);
    await queryRunner.query(`CREATE INDEX "IDX_api_sessions_expires" ON "api_sessions" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_sessions"`);
  }
}
