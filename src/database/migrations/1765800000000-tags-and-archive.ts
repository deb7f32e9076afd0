import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, namedResourceTable } from './sql/tables';

/**
 * Tags and the archive (contract §13). A workspace's tags are named rows like its spaces (unique regardless of
 * case, with a colour); a link holds up to 20 of them through `link_tags`, in the order they were given. An archived
 * link still redirects but leaves the lists: archived links are few, so they are found by a partial index of their
 * own, and a list without them counts the account's links less those (as the active links are the enabled less the
 * expired ones), without a new dimension in `link_counts`.
 */
export class TagsAndArchive1765800000000 implements MigrationInterface {
  name = 'TagsAndArchive1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of namedResourceTable('tags', ['"color" smallint NOT NULL DEFAULT 1'])) {
      await queryRunner.query(statement);
    }
    await queryRunner.query(
      createTable(
        'link_tags',
        ['"link_id" integer NOT NULL', '"tag_id" integer NOT NULL', '"position" smallint NOT NULL'],
        ['link_id', 'tag_id'],
        { link_id: 'links', tag_id: 'tags' },
      ),
    );
    // A tag's links in id order: its filter pages along it, and its count reads it alone.
    await queryRunner.query(`CREATE INDEX "IDX_link_tags_tag" ON "link_tags" ("tag_id", "link_id")`);
    await queryRunner.query(
      `CREATE TRIGGER "audit_tags" AFTER INSERT OR UPDATE OR DELETE ON "tags"
         FOR EACH ROW WHEN (coalesce(current_setting('shortlink.actor', true), '') <> '')
         EXECUTE FUNCTION "audit_change"('tag')`,
    );

    await queryRunner.query(`ALTER TABLE "links" ADD "archived" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `CREATE INDEX "IDX_links_account_archived" ON "links" ("account_id", "id") WHERE "archived"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_links_account_archived"`);
    await queryRunner.query(`ALTER TABLE "links" DROP COLUMN "archived"`);
    await queryRunner.query(`DROP TABLE "link_tags"`);
    await queryRunner.query(`DROP TABLE "tags"`);
  }
}
