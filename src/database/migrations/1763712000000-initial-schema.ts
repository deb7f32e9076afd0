import type { MigrationInterface, QueryRunner } from 'typeorm';
import { namedResourceTable, numberedTable } from './sql/tables';

export class InitialSchema1763712000000 implements MigrationInterface {
  name = 'InitialSchema1763712000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      numberedTable('accounts', [
        '"name" character varying(255) NOT NULL',
        '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
      ]),
    );
    await queryRunner.query(
      numberedTable(
        'api_keys',
        [
          '"account_id" integer NOT NULL',
          '"key_hash" character(64) NOT NULL',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"revoked_at" TIMESTAMP WITH TIME ZONE',
        ],
        { account_id: 'accounts' },
      ),
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_keys_key_hash" ON "api_keys" ("key_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_api_keys_account" ON "api_keys" ("account_id")`);

    for (const statement of namedResourceTable('spaces', ['"color" smallint NOT NULL DEFAULT 1'])) {
      await queryRunner.query(statement);
    }

    // The core of the links table, so that spaces can count their links and deleting a space leaves its links
    // without one (ON DELETE SET NULL). The links feature extends this table.
    await queryRunner.query(
      numberedTable(
        'links',
        [
          '"account_id" integer NOT NULL',
          '"space_id" integer',
          '"alias" character varying(255) NOT NULL',
          '"url" character varying(2048) NOT NULL',
          '"clicks" integer NOT NULL DEFAULT 0',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        { account_id: 'accounts', space_id: { table: 'spaces', onDelete: 'SET NULL' } },
      ),
    );
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
