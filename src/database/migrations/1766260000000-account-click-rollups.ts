import type { MigrationInterface, QueryRunner } from 'typeorm';
import * as rollups from './sql/rollups';
import { triggerFunction } from './sql/triggers';

/** The trigger that takes deleted links' rollups out of their account's. */
const DELETE_TRIGGER = 'TR_links_delete_account_rollups';

/**
 * A workspace's clicks counted as a whole beside each link's, so that its stats without a filter read rows per
 * hour, or per dimension, day and value, however many links it has.
 *
 * - `account_click_hours` (clicks per account and hour) and `account_click_days` (per account, dimension, day and
 *   value) hold the sums of `click_hours` and `click_days` over the account's links, written in the statement or
 *   transaction that writes those: a click batch, a claim, an import, a row inserted into the `clicks` view.
 *   `bigint`: an account's day adds up the clicks of all its links. A target's own url (code 0 of dimension 9) is
 *   each link's url as it is now, so it is kept per link: as the negated link id (`click_values` ids are positive).
 * - A link deleted takes its rollups out of its account's, and a link whose `account_id` changes moves them, with
 *   its counter (click batches credit the account their counter rows name): the account's rollups are always the
 *   sum over the links it has, as its stats counted them before. No foreign key to `accounts`: like `link_counts`,
 *   they follow the links, and an account deleted takes its links, whose delete empties its rows.
 * - Triggers of their own beside the released ones, which stay as they were: the view's second INSTEAD OF trigger
 *   (a migration that makes the view again makes it again too), and a delete trigger named to run before the one
 *   that deletes the links' rollups.
 *
 * Filled from the links' rollups, one statement per table. Instances of the previous release do not write them:
 * clicks they write after this migration are missing from the workspace's totals until `stats:rebuild` counts the
 * accounts again, so this release is deployed with a stop, or rebuilt after the rollout.
 */
export class AccountClickRollups1766260000000 implements MigrationInterface {
  name = 'AccountClickRollups1766260000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of rollups.rollupsOf('account')) {
      await queryRunner.query(rollups.sharedRollupTable(table));
    }
    await queryRunner.query(`
      INSERT INTO "account_click_hours" ("account_id", "hour", "clicks")
      SELECT l."account_id", h."hour", sum(h."clicks") FROM "click_hours" h JOIN "links" l ON l."id" = h."link_id"
       GROUP BY 1, 2`);
    await queryRunner.query(`
      INSERT INTO "account_click_days" ("account_id", "dimension", "day", "value", "clicks")
      SELECT l."account_id", d."dimension", d."day", ${rollups.SHARED_VALUE}, sum(d."clicks")
        FROM "click_days" d JOIN "links" l ON l."id" = d."link_id"
       GROUP BY 1, 2, 3, 4`);

    // A row inserted into the view: its account's rollups too.
    for (const statement of rollups.recordClicksIn('account')) await queryRunner.query(statement);
    // A deleted link's rollups out of its account's, read before `TR_links_delete_clicks` (after it by name)
    // deletes them.
    for (const statement of rollups.rollupsOutOf('account', DELETE_TRIGGER)) {
      await queryRunner.query(statement);
    }

    // A link that changes workspace takes its counter and its rollups' sums along: taken from the one, added to
    // the other, in one statement per table.
    const moving = `CROSS JOIN (VALUES (OLD."account_id", -1), (NEW."account_id", 1)) AS m("account_id", "sign")`;
    await queryRunner.query(
      triggerFunction(
        'click_rollups_follow_account',
        [
          'UPDATE "link_counters" SET "account_id" = NEW."account_id" WHERE "link_id" = NEW."id";',
          ...rollups.addToShared(
            'account_click_hours',
            `SELECT m."account_id", h."hour", m."sign" * h."clicks" AS "clicks"
                 FROM "click_hours" h ${moving} WHERE h."link_id" = NEW."id"`,
          ),
          ...rollups.addToShared(
            'account_click_days',
            `SELECT m."account_id", d."dimension", d."day", ${rollups.SHARED_VALUE} AS "value", m."sign" * d."clicks" AS "clicks"
                 FROM "click_days" d ${moving} WHERE d."link_id" = NEW."id"`,
          ),
        ],
        { declare: rollups.emptiedIn('account') },
      ),
    );
    await queryRunner.query(`
      CREATE TRIGGER "TR_links_rollups_account" AFTER UPDATE OF "account_id" ON "links" FOR EACH ROW
      WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id") EXECUTE FUNCTION "click_rollups_follow_account"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of rollups.dropShared('account', DELETE_TRIGGER)) await queryRunner.query(statement);
  }
}
