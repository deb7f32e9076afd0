import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns } from './sql/tables';
import { triggerFunction } from './sql/triggers';

/**
 * Less work for PostgreSQL per click, the half of a redirect's cost that is not Node's.
 *
 * - A batch's counter updates become HOT (written in place, no index touched): no index reads `clicks` any more.
 *   Lists sort by `listed_clicks`, a copy of `clicks` that the list brings up to date for its account before it
 *   reads (`listed_behind` marks the counters whose copy is behind, and a partial index finds them). Claims, which
 *   serve the links with a limit, keep the copy exact themselves, so the index of the links at their limit reads
 *   the copy too.
 * - Click rows are keyed by `(link_id, created_at, id)`: the one index that stats and exports read is the primary
 *   key, instead of a second index beside a key on `id` alone.
 */
export class ClickWritePath1764600000000 implements MigrationInterface {
  name = 'ClickWritePath1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      addColumns('link_counters', [
        '"listed_clicks" integer NOT NULL DEFAULT 0',
        '"listed_behind" boolean NOT NULL DEFAULT false',
      ]),
    );
    await queryRunner.query(`UPDATE "link_counters" SET "listed_clicks" = "clicks" WHERE "clicks" <> 0`);
    await queryRunner.query(`DROP INDEX "IDX_link_counters_account_clicks"`);
    await queryRunner.query(`DROP INDEX "IDX_link_counters_limit_reached"`);
    await queryRunner.query(`
      CREATE INDEX "IDX_link_counters_account_listed_clicks"
        ON "link_counters" ("account_id", "listed_clicks", "link_id")`);
    await queryRunner.query(`
      CREATE INDEX "IDX_link_counters_limit_reached" ON "link_counters" ("account_id", "link_id")
      WHERE "clicks_limit" > 0 AND "listed_clicks" >= "clicks_limit"`);
    await queryRunner.query(`
      CREATE INDEX "IDX_link_counters_listed_behind" ON "link_counters" ("account_id", "link_id")
      WHERE "listed_behind"`);
    // Click batches mark the counters they move; anything else that moves `clicks` (a claim keeps the copy equal,
    // but an operator's SQL may not) is marked here. The WHEN clause spares the batches a call per row.
    await queryRunner.query(`
      CREATE FUNCTION "link_counters_mark_behind"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW."listed_behind" := true;
        RETURN NEW;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TR_link_counters_mark_behind" BEFORE UPDATE OF "clicks" ON "link_counters" FOR EACH ROW
      WHEN (NEW."clicks" IS DISTINCT FROM NEW."listed_clicks" AND NOT NEW."listed_behind")
      EXECUTE FUNCTION "link_counters_mark_behind"()`);
    // A link that gets a limit is served by claims from then on: its copy starts exact.
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "link_counters_follow_limit"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "link_counters"
           SET "clicks_limit" = NEW."clicks_limit", "listed_clicks" = "clicks", "listed_behind" = false
         WHERE "link_id" = NEW."id";
        RETURN NULL;
      END
      $$`);

    await queryRunner.query(`ALTER TABLE "clicks" DROP CONSTRAINT "PK_clicks"`);
    await queryRunner.query(`DROP INDEX "IDX_clicks_link_created"`);
    await queryRunner.query(
      `ALTER TABLE "clicks" ADD CONSTRAINT "PK_clicks" PRIMARY KEY ("link_id", "created_at", "id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "clicks" DROP CONSTRAINT "PK_clicks"`);
    await queryRunner.query(`ALTER TABLE "clicks" ADD CONSTRAINT "PK_clicks" PRIMARY KEY ("id")`);
    await queryRunner.query(`CREATE INDEX "IDX_clicks_link_created" ON "clicks" ("link_id", "created_at")`);

    await queryRunner.query(
      triggerFunction(
        'link_counters_follow_limit',
        ['UPDATE "link_counters" SET "clicks_limit" = NEW."clicks_limit" WHERE "link_id" = NEW."id";'],
        { replace: true },
      ),
    );
    await queryRunner.query(`DROP TRIGGER "TR_link_counters_mark_behind" ON "link_counters"`);
    await queryRunner.query(`DROP FUNCTION "link_counters_mark_behind"()`);
    await queryRunner.query(`DROP INDEX "IDX_link_counters_listed_behind"`);
    await queryRunner.query(`DROP INDEX "IDX_link_counters_limit_reached"`);
    await queryRunner.query(`DROP INDEX "IDX_link_counters_account_listed_clicks"`);
    await queryRunner.query(`
      CREATE INDEX "IDX_link_counters_limit_reached" ON "link_counters" ("account_id", "link_id")
      WHERE "clicks_limit" > 0 AND "clicks" >= "clicks_limit"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_link_counters_account_clicks" ON "link_counters" ("account_id", "clicks", "link_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "link_counters" DROP COLUMN "listed_behind", DROP COLUMN "listed_clicks"`,
    );
  }
}
