import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions of the dashboard: an API key exchanged once for a cookie. Only the SHA-256 of the cookie's token is
 * stored; a session ends at its own expiry, when its key is revoked or expires (the lookup joins the key), or when
 * it is signed out (its row deleted). Removing a key's row removes its sessions.
 */
export class DashboardSessions1765200000000 implements MigrationInterface {
  name = 'DashboardSessions1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "api_sessions" (
        "id" SERIAL NOT NULL,
        "token_hash" character(64) NOT NULL,
        "key_id" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_api_sessions" PRIMARY KEY ("id"),
        CONSTRAINT "FK_api_sessions_key" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_api_sessions_token_hash" ON "api_sessions" ("token_hash")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_api_sessions_key" ON "api_sessions" ("key_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_api_sessions_expires" ON "api_sessions" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_sessions"`);
  }
}
