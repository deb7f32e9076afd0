import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, createTable, namedResourceTable, numberedTable } from './sql/tables';

export class LinksDomainsPixels1763798400000 implements MigrationInterface {
  name = 'LinksDomainsPixels1763798400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Substring search on titles, aliases and URLs stays fast on large tables with trigram indexes.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await queryRunner.query(
      numberedTable(
        'domains',
        [
          '"account_id" integer',
          '"name" character varying(255) NOT NULL',
          '"index_page" character varying(2048)',
          '"not_found_page" character varying(2048)',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        { account_id: 'accounts' },
      ),
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_domains_name" ON "domains" ("name")`);
    await queryRunner.query(`CREATE INDEX "IDX_domains_account_id" ON "domains" ("account_id", "id")`);

    const pixelColumns = ['"type" character varying(32) NOT NULL', '"value" character varying(255) NOT NULL'];
    for (const statement of namedResourceTable('pixels', pixelColumns)) {
      await queryRunner.query(statement);
    }

    // No link could be made before this migration, so the new NOT NULL column needs no backfill.
    await queryRunner.query(
      addColumns('links', [
        '"domain_id" integer NOT NULL',
        '"title" character varying(255)',
        '"targets_type" character varying(32)',
        '"targets" jsonb',
        '"last_rotation" integer',
        '"sensitive_content" boolean NOT NULL DEFAULT false',
        '"privacy" smallint NOT NULL DEFAULT 0',
        '"password_hash" character varying(255)',
        '"redirect_password_hash" character varying(255)',
        '"active_period_start_at" TIMESTAMP WITH TIME ZONE',
        '"active_period_end_at" TIMESTAMP WITH TIME ZONE',
        '"clicks_limit" integer',
        '"expiration_url" character varying(2048)',
        '"disabled" boolean NOT NULL DEFAULT false',
        'CONSTRAINT "FK_links_domain" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE NO ACTION',
      ]),
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_links_domain_alias" ON "links" ("domain_id", lower("alias"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_links_domain" ON "links" ("domain_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_links_account_clicks" ON "links" ("account_id", "clicks")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_links_title_trgm" ON "links" USING gin ("title" gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_links_alias_trgm" ON "links" USING gin ("alias" gin_trgm_ops)`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_links_url_trgm" ON "links" USING gin ("url" gin_trgm_ops)`);

    await queryRunner.query(
      createTable(
        'link_pixels',
        ['"link_id" integer NOT NULL', '"pixel_id" integer NOT NULL'],
        ['link_id', 'pixel_id'],
        { link_id: 'links', pixel_id: 'pixels' },
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_link_pixels_pixel" ON "link_pixels" ("pixel_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "link_pixels"`);
    for (const index of [
      'IDX_links_url_trgm',
      'IDX_links_alias_trgm',
      'IDX_links_title_trgm',
      'IDX_links_account_clicks',
      'IDX_links_domain',
      'UQ_links_domain_alias',
    ]) {
      await queryRunner.query(`DROP INDEX "${index}"`);
    }
    await queryRunner.query(`
      ALTER TABLE "links"
        DROP CONSTRAINT "FK_links_domain",
        DROP COLUMN "domain_id", DROP COLUMN "title", DROP COLUMN "targets_type", DROP COLUMN "targets",
        DROP COLUMN "last_rotation", DROP COLUMN "sensitive_content", DROP COLUMN "privacy",
        DROP COLUMN "password_hash", DROP COLUMN "redirect_password_hash", DROP COLUMN "active_period_start_at",
        DROP COLUMN "active_period_end_at", DROP COLUMN "clicks_limit", DROP COLUMN "expiration_url",
        DROP COLUMN "disabled"`);
    await queryRunner.query(`DROP TABLE "pixels"`);
    await queryRunner.query(`DROP TABLE "domains"`);
  }
}
