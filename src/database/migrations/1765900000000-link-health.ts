import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable } from './sql/tables';

/** The host of a URL, lower case: the part after `scheme://` and any user, up to a port, path, query or fragment. */
const HOST_OF_URL = `
  CREATE FUNCTION "link_check_host"(url text) RETURNS varchar LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT left(coalesce(lower(substring(url FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\\[[^]]*\\]|[^:/?#]*)')), ''), 255)
  $$`;

/**
 * Link health (contract §13): every link's target is checked in the background. `link_checks` holds, per link, the
 * last verdict (`status` 0 unknown, 1 ok, 2 broken), the answer's status and when, and when the next check is due;
 * a failed check that waits for its second try counts it in `failures`. Checks are handed out from the index of
 * `due_at`, spaced per host by `link_check_hosts` (the next second a host may be asked, and the last second booked
 * for its backlog), so that no site is asked more than once a second whatever the number of instances. Triggers keep the rows: a new link is due at once, a
 * changed target is unknown again and due at once. Existing links are spread over the first day, so that an upgrade
 * does not check every link in its first minutes. `IDX_link_checks_broken` serves the `health=broken` filter.
 */
export class LinkHealth1765900000000 implements MigrationInterface {
  name = 'LinkHealth1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(HOST_OF_URL);
    await queryRunner.query(
      createTable(
        'link_checks',
        [
          '"link_id" integer NOT NULL',
          '"account_id" integer NOT NULL',
          '"host" character varying(255) NOT NULL',
          '"status" smallint NOT NULL DEFAULT 0',
          '"http_status" smallint',
          '"checked_at" TIMESTAMP WITH TIME ZONE',
          '"due_at" TIMESTAMP WITH TIME ZONE NOT NULL',
          '"failures" smallint NOT NULL DEFAULT 0',
        ],
        ['link_id'],
        { link_id: 'links' },
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_link_checks_due" ON "link_checks" ("due_at")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_link_checks_broken" ON "link_checks" ("account_id", "link_id") WHERE "status" = 2`,
    );
    await queryRunner.query(
      createTable(
        'link_check_hosts',
        [
          '"host" character varying(255) NOT NULL',
          '"next_at" TIMESTAMP WITH TIME ZONE NOT NULL',
          '"booked_until" TIMESTAMP WITH TIME ZONE',
        ],
        ['host'],
      ),
    );
    await queryRunner.query(`
      INSERT INTO "link_checks" ("link_id", "account_id", "host", "due_at")
      SELECT "id", "account_id", link_check_host("url"), now() + random() * interval '1 day' FROM "links"`);

    await queryRunner.query(`
      CREATE FUNCTION "link_checks_for_new_links"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "link_checks" ("link_id", "account_id", "host", "due_at")
        SELECT "id", "account_id", link_check_host("url"), now() FROM "new_links";
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TR_links_checks_insert" AFTER INSERT ON "links" REFERENCING NEW TABLE AS "new_links"
      FOR EACH STATEMENT EXECUTE FUNCTION "link_checks_for_new_links"()`);
    // A row trigger: a target changes one link at a time, and a column list cannot go with transition tables.
    await queryRunner.query(`
      CREATE FUNCTION "link_checks_follow_url"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "link_checks" SET "host" = link_check_host(NEW."url"), "status" = 0, "http_status" = NULL,
               "checked_at" = NULL, "due_at" = now(), "failures" = 0
         WHERE "link_id" = NEW."id";
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TR_links_checks_url" AFTER UPDATE OF "url" ON "links" FOR EACH ROW
      WHEN (OLD."url" IS DISTINCT FROM NEW."url") EXECUTE FUNCTION "link_checks_follow_url"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "TR_links_checks_url" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "link_checks_follow_url"()`);
    await queryRunner.query(`DROP TRIGGER "TR_links_checks_insert" ON "links"`);
    await queryRunner.query(`DROP FUNCTION "link_checks_for_new_links"()`);
    await queryRunner.query(`DROP TABLE "link_check_hosts"`);
    await queryRunner.query(`DROP TABLE "link_checks"`);
    await queryRunner.query(`DROP FUNCTION "link_check_host"(text)`);
  }
}
