import type { MigrationInterface, QueryRunner } from 'typeorm';
import { namedResourceTable } from './sql/tables';

export class InitialSchema1763712000000 implements MigrationInterface {
  name = 'InitialSchema1763712000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "accounts" (
        "id" SERIAL NOT NULL,
        "name" character varying(255) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_accounts" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`
      CREATE TABLE "api_keys" (
        "id" SERIAL NOT NULL,
        "account_id" integer NOT NULL,
        "key_hash" character(64) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "revoked_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_api_keys" PRIMARY KEY ("id"),
        CONSTRAINT "FK_api_keys_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys" ("key_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_api_keys_account" ON "api_keys" ("account_id")`);

    for (const statement of namedResourceTable('spaces', ['"color" smallint NOT NULL DEFAULT 1'])) {
      await queryRunner.query(statement);
    }

    // The core of the links table, so that spaces can count their links and deleting a space leaves its links
    // without one (ON DELETE SET NULL). The links feature extends this table.
    await queryRunner.query(`
      CREATE TABLE "links" (
        "id" SERIAL NOT NULL,
        "account_id" integer NOT NULL,
        "space_id" integer,
        "alias" character varying(255) NOT NULL,
        "url" character varying(2048) NOT NULL,
        "clicks" integer NOT NULL DEFAULT 0,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_links" PRIMARY KEY ("id"),
        CONSTRAINT "FK_links_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_links_space" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE SET NULL
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_links_account_id" ON "links" ("account_id", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_links_space" ON "links" ("space_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "links"`);
    await queryRunner.query(`DROP TABLE "spaces"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TABLE "accounts"`);
  }
}
