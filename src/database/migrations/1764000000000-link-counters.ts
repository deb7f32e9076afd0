import type { MigrationInterface, QueryRunner } from 'typeorm';
import { linkStatementTrigger, triggerFunction } from './sql/triggers';

/**
 * The counters that visits write (`clicks`, `last_rotation`) move out of `links` into a narrow table of their own:
 * a click no longer rewrites the wide link row and its nine indexes (three of them trigram), and the row that
 * lists and searches read stays put. Every link has exactly one counter row, made by a trigger for each statement
 * that inserts links (bulk loads included).
 */
export class LinkCounters1764000000000 implements MigrationInterface {
  name = 'LinkCounters1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "link_counters" (
        "link_id" integer NOT NULL,
        "account_id" integer NOT NULL,
        "clicks" integer NOT NULL DEFAULT 0,
        "last_rotation" integer,
        CONSTRAINT "PK_link_counters" PRIMARY KEY ("link_id"),
        CONSTRAINT "FK_link_counters_link" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE
      ) WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05)`);
    // Sorting an account's links by clicks reads this index alone.
    await queryRunner.query(
      `CREATE INDEX "IDX_link_counters_account_clicks" ON "link_counters" ("account_id", "clicks", "link_id")`,
    );
    await queryRunner.query(`
      INSERT INTO "link_counters" ("link_id", "account_id", "clicks", "last_rotation")
      SELECT "id", "account_id", "clicks", "last_rotation" FROM "links"`);
    await queryRunner.query(
      triggerFunction('link_counters_for_new_links', [
        'INSERT INTO "link_counters" ("link_id", "account_id") SELECT "id", "account_id" FROM "new_links";',
      ]),
    );
    await queryRunner.query(
      linkStatementTrigger('TR_links_counters', 'INSERT', 'new_links', 'link_counters_for_new_links'),
    );
    await queryRunner.query(`DROP INDEX "IDX_links_account_clicks"`);
    await queryRunner.query(`ALTER TABLE "links" DROP COLUMN "clicks", DROP COLUMN "last_rotation"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "links" ADD "clicks" integer NOT NULL DEFAULT 0, ADD "last_rotation" integer`,
    );
    await queryRunner.query(`
      UPDATE "links" SET "clicks" = c."clicks", "last_rotation" = c."last_rotation"
        FROM "link_counters" c WHERE c."link_id" = "links"."id"`);
    await queryRunner.query(`CREATE INDEX "IDX_links_account_clicks" ON "links" ("account_id", "clicks")`);
    await queryRunner.query(`DROP TRIGGER "TR_links_counters" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "link_counters_for_new_links"()`);
    await queryRunner.query(`DROP TABLE "link_counters"`);
  }
}
