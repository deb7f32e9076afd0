import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable } from './sql/tables';
import {
  announceChanges,
  linkStatementTrigger,
  linkStatementTriggers,
  triggerFunction,
} from './sql/triggers';

/**
 * Clicks are written in batches. Each batch has an id, recorded in the same statement as its clicks, so a batch
 * retried after a lost answer is refused rather than counted twice. Click rows lose their foreign key (checked
 * once per row, and a batch must not fail for a link deleted meanwhile): a trigger deletes a link's clicks with it.
 * Changes to links, their pixels and domains are announced on the channel `visit_cache`, so that every instance
 * drops what it cached of them.
 */
export class ClickBatches1764200000000 implements MigrationInterface {
  name = 'ClickBatches1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      createTable(
        'click_batches',
        ['"id" uuid NOT NULL', '"written_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()'],
        ['id'],
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_click_batches_written_at" ON "click_batches" ("written_at")`);

    await queryRunner.query(`ALTER TABLE "clicks" DROP CONSTRAINT "FK_clicks_link"`);
    await queryRunner.query(
      triggerFunction('clicks_of_deleted_links', [
        'DELETE FROM "clicks" WHERE "link_id" IN (SELECT "id" FROM "deleted_links");',
      ]),
    );
    await queryRunner.query(
      linkStatementTrigger('TR_links_delete_clicks', 'DELETE', 'deleted_links', 'clicks_of_deleted_links'),
    );

    // One notice per changed link (its domain and alias, old and new), or one that drops everything for a large
    // statement: a bulk load must not flood the channel.
    await queryRunner.query(`
      CREATE FUNCTION "announce_link_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed bigint;
        entry record;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          SELECT count(*) INTO changed FROM "new_links";
        ELSE
          SELECT count(*) INTO changed FROM "old_links";
        END IF;
        IF changed > 1000 THEN
          PERFORM pg_notify('visit_cache', '*');
          RETURN NULL;
        END IF;
        IF TG_OP <> 'INSERT' THEN
          FOR entry IN SELECT DISTINCT "domain_id", lower("alias") AS "alias" FROM "old_links" LOOP
            PERFORM pg_notify('visit_cache', 'link:' || entry."domain_id" || ':' || entry."alias");
          END LOOP;
        END IF;
        IF TG_OP <> 'DELETE' THEN
          FOR entry IN SELECT DISTINCT "domain_id", lower("alias") AS "alias" FROM "new_links" LOOP
            PERFORM pg_notify('visit_cache', 'link:' || entry."domain_id" || ':' || entry."alias");
          END LOOP;
        END IF;
        RETURN NULL;
      END
      $$`);
    for (const trigger of linkStatementTriggers('TR_links_announce', 'announce_link_changes')) {
      await queryRunner.query(trigger);
    }

    // Whether a link has pixels is part of what a visit needs; domains are cached by host.
    await queryRunner.query(`
      CREATE FUNCTION "announce_link_pixel_changes"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        entry record;
      BEGIN
        FOR entry IN
          SELECT DISTINCT l."domain_id", lower(l."alias") AS "alias" FROM "links" l
           WHERE l."id" = COALESCE(NEW."link_id", OLD."link_id")
        LOOP
          PERFORM pg_notify('visit_cache', 'link:' || entry."domain_id" || ':' || entry."alias");
        END LOOP;
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TR_link_pixels_announce" AFTER INSERT OR DELETE ON "link_pixels"
      FOR EACH ROW EXECUTE FUNCTION "announce_link_pixel_changes"()`);
    for (const statement of announceChanges('domains', 'announce_domain_changes')) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_domains_announce" ON "domains"`);
    await queryRunner.query(`DROP FUNCTION "announce_domain_changes"()`);
    await queryRunner.query(`DROP TRIGGER "TR_link_pixels_announce" ON "link_pixels"`);
    await queryRunner.query(`DROP FUNCTION "announce_link_pixel_changes"()`);
    await queryRunner.query(`DROP TRIGGER "TR_links_announce_delete" ON "links"`);
    await queryRunner.query(`DROP TRIGGER "TR_links_announce_update" ON "links"`);
    await queryRunner.query(`DROP TRIGGER "TR_links_announce_insert" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "announce_link_changes"()`);
    await queryRunner.query(`DROP TRIGGER "TR_links_delete_clicks" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "clicks_of_deleted_links"()`);
    await queryRunner.query(
      `DELETE FROM "clicks" c WHERE NOT EXISTS (SELECT 1 FROM "links" l WHERE l."id" = c."link_id")`,
    );
    await queryRunner.query(`
      ALTER TABLE "clicks" ADD CONSTRAINT "FK_clicks_link"
      FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE`);
    await queryRunner.query(`DROP TABLE "click_batches"`);
  }
}
