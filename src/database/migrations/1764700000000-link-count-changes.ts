import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyToCounts, EMPTIED, KEY, statementChanges } from './sql/link-counts';
import { triggerFunction } from './sql/triggers';

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
    await queryRunner.query(
      triggerFunction('link_counts_follow', [statementChanges(applyToChanges, '    ')], { replace: true }),
    );
    // A constraint trigger fires once per row inserted; the first to fire folds every row of the transaction.
    const folded = `DELETE FROM link_count_changes WHERE xid = pg_current_xact_id() RETURNING ${KEY}, links`;
    await queryRunner.query(
      triggerFunction('link_counts_fold', [applyToCounts(folded, 'with')], { declare: [EMPTIED] }),
    );
    await queryRunner.query(`
      CREATE CONSTRAINT TRIGGER "TR_link_count_changes_fold" AFTER INSERT ON "link_count_changes"
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "link_counts_fold"()`);
    await queryRunner.query(
      triggerFunction(
        'link_counts_truncate',
        [
          'DELETE FROM "link_count_changes" WHERE "xid" = pg_current_xact_id();',
          'DELETE FROM "link_counts";',
        ],
        { replace: true },
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      triggerFunction('link_counts_truncate', ['DELETE FROM "link_counts";'], { replace: true }),
    );
    const counted = statementChanges((deltas) => applyToCounts(deltas, 'with'), '    ');
    await queryRunner.query(
      triggerFunction('link_counts_follow', [counted], { declare: [EMPTIED], replace: true }),
    );
    await queryRunner.query(`DROP TRIGGER "TR_link_count_changes_fold" ON "link_count_changes"`);
    await queryRunner.query(`DROP FUNCTION "link_counts_fold"()`);
    await queryRunner.query(`DROP TABLE "link_count_changes"`);
  }
}
