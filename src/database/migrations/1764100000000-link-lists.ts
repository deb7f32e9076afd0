import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyToCounts, KEY, statementChanges } from './sql/link-counts';
import { linkStatementTriggers, triggerFunction } from './sql/triggers';

const TRIGRAM_COLUMNS = ['title', 'alias', 'url'];

const COUNTER_ROWS_WITH_LIMIT = `
  CREATE OR REPLACE FUNCTION "link_counters_for_new_links"() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO "link_counters" ("link_id", "account_id", "clicks_limit")
    SELECT "id", "account_id", "clicks_limit" FROM "new_links";
    RETURN NULL;
  END
  $$`;

const COUNTER_ROWS = `
  CREATE OR REPLACE FUNCTION "link_counters_for_new_links"() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO "link_counters" ("link_id", "account_id") SELECT "id", "account_id" FROM "new_links";
    RETURN NULL;
  END
  $$`;

/**
 * What keeps `GET /links` fast with a million links in one account:
 *
 * - an index for every sort, `(account_id, <sort key>, id)`, read forwards or backwards, and one for every filter
 *   that pages in id order (space, domain, disabled), so that no page sorts or skips the account's rows;
 * - searches written as lower(column) LIKE lower(pattern), served by trigram indexes on lower(column) for rare
 *   terms and counted from the sort indexes of title and alias for common ones;
 * - `link_counts`, an account's links counted per space, domain and disabled, kept by statement triggers on
 *   `links`: the exact total of every list without a search or a pixel is a sum over a few rows;
 * - the expired links found by index alone, for the status filter: partial indexes of the links whose period has
 *   not begun or has ended, and of the counters at their clicks limit. For that last one the counter row carries
 *   a copy of its link's `clicks_limit`, kept by triggers on `links`; visits never write it.
 * - autovacuum thresholds for the tables that lists read through index-only scans.
 *
 * Building the indexes holds writes to `links` for about a minute per million links.
 */
export class LinkLists1764100000000 implements MigrationInterface {
  name = 'LinkLists1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Title and alias carry their text too: a count of the links whose text contains a common term reads the
    // lower-case keys of this index alone (an index-only scan needs every column the expression reads). URLs are
    // left out: two copies of a 2048-character URL would not fit in an index entry.
    for (const [name, key] of [
      ['IDX_links_account_title', 'lower("title"), "id") INCLUDE ("title"'],
      ['IDX_links_account_alias', 'lower("alias"), "id") INCLUDE ("alias"'],
      ['IDX_links_account_url', 'lower("url"), "id"'],
      ['IDX_links_account_space', '"space_id", "id"'],
      ['IDX_links_account_domain', '"domain_id", "id"'],
    ]) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "links" ("account_id", ${key})`);
    }
    // The trigram indexes serve the search as written, lower(column) LIKE lower(pattern), which is what ILIKE
    // does in a UTF-8 database (pg_trgm folds case itself, so they hold the same trigrams as before).
    for (const column of TRIGRAM_COLUMNS) {
      await queryRunner.query(`DROP INDEX "IDX_links_${column}_trgm"`);
      await queryRunner.query(
        `CREATE INDEX "IDX_links_${column}_trgm" ON "links" USING gin (lower("${column}") gin_trgm_ops)`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX "IDX_links_account_disabled" ON "links" ("account_id", "id") WHERE "disabled"`,
    );
    // Expired by its period: not begun yet, or ended (after it began: the start is kept in the index to tell).
    // Disabled links are never expired.
    await queryRunner.query(`
      CREATE INDEX "IDX_links_account_period_start" ON "links" ("account_id", "active_period_start_at", "id")
      WHERE NOT "disabled" AND "active_period_start_at" IS NOT NULL`);
    await queryRunner.query(`
      CREATE INDEX "IDX_links_account_period_end" ON "links" ("account_id", "active_period_end_at", "id")
      INCLUDE ("active_period_start_at") WHERE NOT "disabled" AND "active_period_end_at" IS NOT NULL`);

    // Expired by its clicks: the counter row knows its link's limit.
    await queryRunner.query(`ALTER TABLE "link_counters" ADD "clicks_limit" integer`);
    await queryRunner.query(`
      UPDATE "link_counters" c SET "clicks_limit" = l."clicks_limit"
        FROM "links" l WHERE l."id" = c."link_id" AND l."clicks_limit" IS NOT NULL`);
    await queryRunner.query(`
      CREATE INDEX "IDX_link_counters_limit_reached" ON "link_counters" ("account_id", "link_id")
      WHERE "clicks_limit" > 0 AND "clicks" >= "clicks_limit"`);
    // ... and the links with a limit say whether they are inside their period, without reading their rows.
    await queryRunner.query(`
      CREATE INDEX "IDX_links_account_limited" ON "links" ("account_id", "id")
      INCLUDE ("active_period_start_at", "active_period_end_at") WHERE NOT "disabled" AND "clicks_limit" > 0`);
    await queryRunner.query(COUNTER_ROWS_WITH_LIMIT);
    await queryRunner.query(
      triggerFunction('link_counters_follow_limit', [
        'UPDATE "link_counters" SET "clicks_limit" = NEW."clicks_limit" WHERE "link_id" = NEW."id";',
      ]),
    );
    await queryRunner.query(`
      CREATE TRIGGER "TR_links_counters_limit" AFTER UPDATE OF "clicks_limit" ON "links" FOR EACH ROW
      WHEN (OLD."clicks_limit" IS DISTINCT FROM NEW."clicks_limit") EXECUTE FUNCTION "link_counters_follow_limit"()`);

    await queryRunner.query(`
      CREATE TABLE "link_counts" (
        "account_id" integer NOT NULL,
        "space_id" integer NOT NULL,
        "domain_id" integer NOT NULL,
        "disabled" boolean NOT NULL,
        "links" integer NOT NULL,
        CONSTRAINT "PK_link_counts" PRIMARY KEY ("account_id", "space_id", "domain_id", "disabled")
      ) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`);
    await queryRunner.query(`
      INSERT INTO "link_counts" (${KEY}, "links")
      SELECT "account_id", COALESCE("space_id", 0), "domain_id", "disabled", count(*) FROM "links"
       GROUP BY 1, 2, 3, 4`);
    // One function for the three statement triggers; each branch reads only its own transition tables.
    await queryRunner.query(`
      CREATE FUNCTION "link_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        emptied integer[];
      BEGIN${statementChanges((deltas) => applyToCounts(deltas, 'subquery'), '        ')}
        RETURN NULL;
      END
      $$`);
    for (const trigger of linkStatementTriggers('TR_links_counts', 'link_counts_follow')) {
      await queryRunner.query(trigger);
    }
    await queryRunner.query(triggerFunction('link_counts_truncate', ['DELETE FROM "link_counts";']));
    await queryRunner.query(`
      CREATE TRIGGER "TR_links_counts_truncate" AFTER TRUNCATE ON "links"
      FOR EACH STATEMENT EXECUTE FUNCTION "link_counts_truncate"()`);

    // Statistics for the new expression indexes, which the planner's estimates of searches read.
    await queryRunner.query(`ANALYZE "links"`);

    // Index-only scans read the visibility map, which only vacuum sets: vacuum (and analyse) after 2% of a table
    // changed rather than the server's default 20%.
    for (const table of ['links', 'link_pixels']) {
      await queryRunner.query(`
        ALTER TABLE "${table}" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02,
          autovacuum_vacuum_insert_scale_factor = 0.02)`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['links', 'link_pixels']) {
      await queryRunner.query(`
        ALTER TABLE "${table}" RESET (autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor,
          autovacuum_vacuum_insert_scale_factor)`);
    }
    await queryRunner.query(`DROP TRIGGER "TR_links_counts_truncate" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "link_counts_truncate"()`);
    for (const trigger of ['TR_links_counts_insert', 'TR_links_counts_update', 'TR_links_counts_delete']) {
      await queryRunner.query(`DROP TRIGGER "${trigger}" ON "links"`);
    }
    await queryRunner.query(`DROP FUNCTION "link_counts_follow"()`);
    await queryRunner.query(`DROP TABLE "link_counts"`);

    await queryRunner.query(`DROP TRIGGER "TR_links_counters_limit" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "link_counters_follow_limit"()`);
    await queryRunner.query(COUNTER_ROWS);
    await queryRunner.query(`DROP INDEX "IDX_link_counters_limit_reached"`);
    await queryRunner.query(`ALTER TABLE "link_counters" DROP COLUMN "clicks_limit"`);

    await queryRunner.query(`DROP INDEX "IDX_links_account_limited"`);
    for (const column of TRIGRAM_COLUMNS) {
      await queryRunner.query(`DROP INDEX "IDX_links_${column}_trgm"`);
      await queryRunner.query(
        `CREATE INDEX "IDX_links_${column}_trgm" ON "links" USING gin ("${column}" gin_trgm_ops)`,
      );
    }
    for (const index of [
      'IDX_links_account_period_end',
      'IDX_links_account_period_start',
      'IDX_links_account_disabled',
      'IDX_links_account_domain',
      'IDX_links_account_space',
      'IDX_links_account_url',
      'IDX_links_account_alias',
      'IDX_links_account_title',
    ]) {
      await queryRunner.query(`DROP INDEX "${index}"`);
    }
  }
}
