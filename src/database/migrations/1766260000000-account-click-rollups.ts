import type { MigrationInterface, QueryRunner } from 'typeorm';
import { linkStatementTrigger, triggerFunction } from './sql/triggers';

/** A `click_days` row's value (alias `d`) as its account's rollups key it: a target's own url per link. */
const ACCOUNT_VALUE = `CASE WHEN d."dimension" = 9 AND d."value" = 0 THEN -d."link_id" ELSE d."value" END`;

/** The key columns of each account rollup, and the type of each key column after the account. */
const KEYS = {
  account_click_hours: { columns: ['hour'], types: ['timestamptz'] },
  account_click_days: { columns: ['dimension', 'day', 'value'], types: ['smallint', 'date', 'integer'] },
} as const;
type AccountRollup = keyof typeof KEYS;

/** An account rollup's key: the account, then its own columns, quoted. */
function keyOf(table: AccountRollup): string[] {
  return ['account_id', ...KEYS[table].columns].map((column) => `"${column}"`);
}

/** The variables that hold the keys of an account rollup's rows left at zero. */
function emptiedOf(table: AccountRollup): string[] {
  return ['account_id', ...KEYS[table].columns].map((column) => `emptied_${table}_${column}`);
}

/** What the functions that add to the account rollups declare: the keys of the rows they leave at zero. */
const EMPTIED = (Object.keys(KEYS) as AccountRollup[]).flatMap((table) =>
  emptiedOf(table).map(
    (name, index) => `${name} ${index === 0 ? 'integer' : KEYS[table].types[index - 1]}[];`,
  ),
);

/**
 * Adds `changes` (a query of the table's key columns and `clicks`) to an account rollup, in key order as the click
 * statements do so that writers lock shared rows in the same order, then removes the rows it left at zero: two
 * statements of a plpgsql body.
 */
function addToAccounts(table: AccountRollup, changes: string): string[] {
  const key = keyOf(table);
  const emptied = emptiedOf(table);
  return [
    `WITH applied AS (
          INSERT INTO "${table}" AS a (${key.join(', ')}, "clicks")
          SELECT ${key.join(', ')}, sum("clicks") FROM (${changes}) c GROUP BY ${key.join(', ')} HAVING sum("clicks") <> 0
           ORDER BY ${key.join(', ')}
          ON CONFLICT (${key.join(', ')}) DO UPDATE SET "clicks" = a."clicks" + excluded."clicks"
          RETURNING ${key.map((column) => `a.${column}`).join(', ')}, a."clicks")
        SELECT ${key.map((column) => `array_agg(${column})`).join(', ')} INTO ${emptied.join(', ')}
          FROM applied WHERE "clicks" = 0;`,
    `DELETE FROM "${table}" a USING unnest(${emptied.join(', ')}) AS e(${key.join(', ')})
         WHERE ${key.map((column) => `a.${column} = e.${column}`).join(' AND ')} AND a."clicks" = 0;`,
  ];
}

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
    // Each keyed by its account, then the columns of its links' key after the link; filled up to 90%, as those are.
    for (const table of Object.keys(KEYS) as AccountRollup[]) {
      const { columns, types } = KEYS[table];
      await queryRunner.query(`
      CREATE TABLE "${table}" (
        "account_id" integer NOT NULL,${columns.map((column, index) => `\n        "${column}" ${types[index]} NOT NULL,`).join('')}
        "clicks" bigint NOT NULL,
        CONSTRAINT "PK_${table}" PRIMARY KEY (${keyOf(table).join(', ')})
      ) WITH (fillfactor = 90)`);
    }
    await queryRunner.query(`
      INSERT INTO "account_click_hours" ("account_id", "hour", "clicks")
      SELECT l."account_id", h."hour", sum(h."clicks") FROM "click_hours" h JOIN "links" l ON l."id" = h."link_id"
       GROUP BY 1, 2`);
    await queryRunner.query(`
      INSERT INTO "account_click_days" ("account_id", "dimension", "day", "value", "clicks")
      SELECT l."account_id", d."dimension", d."day", ${ACCOUNT_VALUE}, sum(d."clicks")
        FROM "click_days" d JOIN "links" l ON l."id" = d."link_id"
       GROUP BY 1, 2, 3, 4`);

    // A row inserted into the view, after `record_click` (triggers run in name order) made its profile and locked
    // its counter row: its account's rollups too.
    await queryRunner.query(`
      CREATE FUNCTION "record_click_in_account"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        profile integer;
      BEGIN
        profile := click_profile_id(NEW."referrer", NEW."country", NEW."city", NEW."continent", NEW."browser",
                                    NEW."operating_system", NEW."device", NEW."language");
        INSERT INTO "account_click_hours" AS h ("account_id", "hour", "clicks")
        SELECT c."account_id", date_bin('1 hour', NEW."created_at", '2000-01-01 00:00:00+00'), 1
          FROM "link_counters" c WHERE c."link_id" = NEW."link_id"
        ON CONFLICT ("account_id", "hour") DO UPDATE SET "clicks" = h."clicks" + 1;
        INSERT INTO "account_click_days" AS d ("account_id", "dimension", "day", "value", "clicks")
        SELECT c."account_id", pd."dimension", (NEW."created_at" AT TIME ZONE 'UTC')::date, pd."value", 1
          FROM "link_counters" c JOIN "click_profile_dimensions" pd ON pd."profile_id" = profile
         WHERE c."link_id" = NEW."link_id"
         ORDER BY pd."dimension"
        ON CONFLICT ("account_id", "dimension", "day", "value") DO UPDATE SET "clicks" = d."clicks" + 1;
        RETURN NEW;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER "TR_clicks_record_in_account" INSTEAD OF INSERT ON "clicks" FOR EACH ROW
      EXECUTE FUNCTION "record_click_in_account"()`);

    // A deleted link's rollups out of its account's, read before `TR_links_delete_clicks` (after it by name)
    // deletes them.
    await queryRunner.query(
      triggerFunction(
        'click_rollups_out_of_accounts',
        [
          ...addToAccounts(
            'account_click_hours',
            `SELECT l."account_id", h."hour", -h."clicks" AS "clicks"
                 FROM "click_hours" h JOIN "deleted_links" l ON l."id" = h."link_id"`,
          ),
          ...addToAccounts(
            'account_click_days',
            `SELECT l."account_id", d."dimension", d."day", ${ACCOUNT_VALUE} AS "value", -d."clicks" AS "clicks"
                 FROM "click_days" d JOIN "deleted_links" l ON l."id" = d."link_id"`,
          ),
        ],
        { declare: EMPTIED },
      ),
    );
    await queryRunner.query(
      linkStatementTrigger(
        'TR_links_delete_account_rollups',
        'DELETE',
        'deleted_links',
        'click_rollups_out_of_accounts',
      ),
    );

    // A link that changes workspace takes its counter and its rollups' sums along: taken from the one, added to
    // the other, in one statement per table.
    const moving = `CROSS JOIN (VALUES (OLD."account_id", -1), (NEW."account_id", 1)) AS m("account_id", "sign")`;
    await queryRunner.query(
      triggerFunction(
        'click_rollups_follow_account',
        [
          'UPDATE "link_counters" SET "account_id" = NEW."account_id" WHERE "link_id" = NEW."id";',
          ...addToAccounts(
            'account_click_hours',
            `SELECT m."account_id", h."hour", m."sign" * h."clicks" AS "clicks"
                 FROM "click_hours" h ${moving} WHERE h."link_id" = NEW."id"`,
          ),
          ...addToAccounts(
            'account_click_days',
            `SELECT m."account_id", d."dimension", d."day", ${ACCOUNT_VALUE} AS "value", m."sign" * d."clicks" AS "clicks"
                 FROM "click_days" d ${moving} WHERE d."link_id" = NEW."id"`,
          ),
        ],
        { declare: EMPTIED },
      ),
    );
    await queryRunner.query(`
      CREATE TRIGGER "TR_links_rollups_account" AFTER UPDATE OF "account_id" ON "links" FOR EACH ROW
      WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id") EXECUTE FUNCTION "click_rollups_follow_account"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [trigger, table, fn] of [
      ['TR_links_rollups_account', 'links', 'click_rollups_follow_account'],
      ['TR_links_delete_account_rollups', 'links', 'click_rollups_out_of_accounts'],
      ['TR_clicks_record_in_account', 'clicks', 'record_click_in_account'],
    ]) {
      await queryRunner.query(`DROP TRIGGER "${trigger}" ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION "${fn}"()`);
    }
    await queryRunner.query(`DROP TABLE "account_click_days"`);
    await queryRunner.query(`DROP TABLE "account_click_hours"`);
  }
}
