import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The key of `link_counts`: a link's account, space (0 for none), domain and whether it is disabled. */
const KEY = 'account_id, space_id, domain_id, disabled';

/** The keys of the links in a transition table, with the change each brings to its count. */
function keysOf(table: string, alias: string, change: string): string {
  return `SELECT ${alias}.account_id, COALESCE(${alias}.space_id, 0) AS space_id, ${alias}.domain_id, ${alias}.disabled,
                 ${change} AS links
            FROM ${table} ${alias}`;
}

/** What a statement's changes to `links` do to the counts, whatever they are written into. */
function statementChanges(apply: (deltas: string) => string): string {
  return `
    IF TG_OP = 'INSERT' THEN
      ${apply(keysOf('new_links', 'n', '1'))}
    ELSIF TG_OP = 'DELETE' THEN
      ${apply(keysOf('old_links', 'o', '-1'))}
    ELSE
      ${apply(`
        ${keysOf('old_links', 'o', '-1')} JOIN new_links n ON n.id = o.id
         WHERE (o.account_id, o.space_id, o.domain_id, o.disabled)
               IS DISTINCT FROM (n.account_id, n.space_id, n.domain_id, n.disabled)
        UNION ALL
        ${keysOf('new_links', 'n', '1')} JOIN old_links o ON o.id = n.id
         WHERE (o.account_id, o.space_id, o.domain_id, o.disabled)
               IS DISTINCT FROM (n.account_id, n.space_id, n.domain_id, n.disabled)`)}
    END IF;`;
}

/** Adds `deltas` to the counts in key order, and removes the counts that reach zero. */
function applyToCounts(deltas: string): string {
  return `
    WITH changes AS (${deltas}), delta AS (
      SELECT ${KEY}, sum(links)::int AS links FROM changes GROUP BY ${KEY} HAVING sum(links) <> 0
    ), applied AS (
      INSERT INTO link_counts AS c (${KEY}, links)
      SELECT ${KEY}, links FROM delta ORDER BY ${KEY}
      ON CONFLICT (${KEY}) DO UPDATE SET links = c.links + excluded.links
      RETURNING c.account_id, c.links
    )
    SELECT array_agg(DISTINCT account_id) FILTER (WHERE links = 0) INTO emptied FROM applied;
    IF emptied IS NOT NULL THEN
      DELETE FROM link_counts WHERE account_id = ANY (emptied) AND links = 0;
    END IF;`;
}

/** Adds `deltas` to this transaction's own rows of `link_count_changes`, which no other transaction writes. */
function applyToChanges(deltas: string): string {
  return `
    INSERT INTO link_count_changes AS c (xid, ${KEY}, links)
    SELECT pg_current_xact_id(), ${KEY}, sum(links)::int FROM (${deltas}) d GROUP BY ${KEY} HAVING sum(links) <> 0
    ON CONFLICT (xid, ${KEY}) DO UPDATE SET links = c.links + excluded.links;`;
}

/**
 * `link_counts` is written once per transaction, as it commits, instead of by every statement that changes
 * `links`. A statement trigger updating the count row locked it until commit: a bulk create of 1,000 links, one
 * insert a link, held its account's row for the whole bulk, and another bulk of the account waited on it until its
 * statement timed out. Statements now add their changes to rows of their own transaction in `link_count_changes`
 * (keyed by the transaction id, so no two transactions touch the same row), and a deferred trigger folds them into
 * `link_counts` at commit: the count rows are locked from there to the end of the commit only.
 *
 * A transaction does not see its own changes in `link_counts` before it commits; `link_count_changes` holds them.
 */
export class LinkCountChanges1764700000000 implements MigrationInterface {
  name = 'LinkCountChanges1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "link_count_changes" (
        "xid" xid8 NOT NULL,
        "account_id" integer NOT NULL,
        "space_id" integer NOT NULL,
        "domain_id" integer NOT NULL,
        "disabled" boolean NOT NULL,
        "links" integer NOT NULL,
        CONSTRAINT "PK_link_count_changes" PRIMARY KEY ("xid", "account_id", "space_id", "domain_id", "disabled")
      ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "link_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${statementChanges(applyToChanges)}
        RETURN NULL;
      END
      $$`);
    // A constraint trigger fires once per row inserted; the first to fire folds every row of the transaction.
    await queryRunner.query(`
      CREATE FUNCTION "link_counts_fold"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        emptied integer[];
      BEGIN
        ${applyToCounts(`DELETE FROM link_count_changes WHERE xid = pg_current_xact_id() RETURNING ${KEY}, links`)}
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER "TR_link_count_changes_fold" AFTER INSERT ON "link_count_changes"
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "link_counts_fold"()`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "link_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM "link_count_changes" WHERE "xid" = pg_current_xact_id();
        DELETE FROM "link_counts";
        RETURN NULL;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "link_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM "link_counts";
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "link_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        emptied integer[];
      BEGIN
        ${statementChanges(applyToCounts)}
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`DROP TRIGGER "TR_link_count_changes_fold" ON "link_count_changes"`);
    await queryRunner.query(`DROP FUNCTION "link_counts_fold"()`);
    await queryRunner.query(`DROP TABLE "link_count_changes"`);
  }
}
