import type { MigrationInterface, QueryRunner } from 'typeorm';
import * as rollups from './sql/rollups';
import { addColumns } from './sql/tables';
import { linkUpdateTrigger, triggerFunction } from './sql/triggers';

/** The trigger that takes deleted links' rollups out of their space's. */
const DELETE_TRIGGER = 'TR_links_delete_account_space_rollups';

/** A link's space as the space rollups and its counter name it: 0 for none. */
const SPACE = (link: string) => `COALESCE(${link}."space_id", 0)`;

/**
 * The function that makes the counter rows of the links a statement inserts, copying `columns` (the counter's
 * column, then what it holds of the link).
 */
function counterRows(columns: [string, string][]): string {
  return triggerFunction(
    'link_counters_for_new_links',
    [
      `INSERT INTO "link_counters" (${columns.map(([column]) => `"${column}"`).join(', ')}) SELECT ${columns.map(([, value]) => value).join(', ')} FROM "new_links";`,
    ],
    { replace: true },
  );
}

/** What the counter rows copied of their links before: the account and the clicks limit. */
const COUNTER_COLUMNS: [string, string][] = [
  ['link_id', '"id"'],
  ['account_id', '"account_id"'],
  ['clicks_limit', '"clicks_limit"'],
];

/**
 * A space's clicks counted as a whole beside its links', as a workspace's are (`AccountClickRollups1766260000000`,
 * whose rules these follow), so that the stats of a space, or of the spaces a restricted key reaches, read rows per
 * hour, or per dimension, day and value, however many links the space has.
 *
 * - `space_click_hours` and `space_click_days` hold the sums of `click_hours` and `click_days` over the links of an
 *   account and space (0: the links in none, so that the filter `space_id=0` reads them too), a target's own url
 *   kept per link, written with them by every writer of clicks.
 * - `link_counters.space_id` (0 for none) is the space a click batch credits, read from the counter row it locks,
 *   as it reads the account: the trigger that moves a link's rollups between spaces (or accounts) sets it under
 *   that same row lock. A statement trigger, not a row trigger: a statement that moves many links (a bulk move, a
 *   space deleted, whose links' `space_id` its foreign key sets to null) locks all their counter rows first, in
 *   link order as batches do, then the space rows, where one move after another would hold space rows while
 *   waiting for the next counter, which a batch holding that counter and waiting for those rows deadlocks with.
 * - A link deleted takes its rollups out of its space's: a delete trigger named to run after the account's (every
 *   writer locks the account rollups before the space ones) and before `TR_links_delete_clicks` deletes the links'.
 *   The view's third INSTEAD OF trigger runs after the account's by name.
 *
 * Filled from the links' rollups, one statement per table. Instances of the previous release do not write them: this
 * release is deployed with a stop, or followed by `stats:rebuild` once they have stopped.
 */
export class SpaceClickRollups1766300000000 implements MigrationInterface {
  name = 'SpaceClickRollups1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Added with a default (no rewrite), set where the link has a space, then required of every writer.
    await queryRunner.query(addColumns('link_counters', ['"space_id" integer NOT NULL DEFAULT 0']));
    await queryRunner.query(`
      UPDATE "link_counters" c SET "space_id" = l."space_id" FROM "links" l
       WHERE l."id" = c."link_id" AND l."space_id" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "link_counters" ALTER "space_id" DROP DEFAULT`);
    await queryRunner.query(counterRows([...COUNTER_COLUMNS, ['space_id', SPACE('new_links')]]));

    for (const table of rollups.rollupsOf('space')) await queryRunner.query(rollups.sharedRollupTable(table));
    await queryRunner.query(`
      INSERT INTO "space_click_hours" ("account_id", "space_id", "hour", "clicks")
      SELECT c."account_id", c."space_id", h."hour", sum(h."clicks")
        FROM "click_hours" h JOIN "link_counters" c ON c."link_id" = h."link_id"
       GROUP BY 1, 2, 3`);
    await queryRunner.query(`
      INSERT INTO "space_click_days" ("account_id", "space_id", "dimension", "day", "value", "clicks")
      SELECT c."account_id", c."space_id", d."dimension", d."day", ${rollups.SHARED_VALUE}, sum(d."clicks")
        FROM "click_days" d JOIN "link_counters" c ON c."link_id" = d."link_id"
       GROUP BY 1, 2, 3, 4, 5`);

    for (const statement of [
      ...rollups.recordClicksIn('space'),
      ...rollups.rollupsOutOf('space', DELETE_TRIGGER),
    ]) {
      await queryRunner.query(statement);
    }

    // The links whose account or space a statement changed, found by one join of its transition tables and kept as
    // arrays in link order: their counters locked in that order and set, then their rollups' sums taken from where
    // they were and added where they are, in one statement per table. Every statement reads the moves by `unnest`
    // and the rollups through their keys, linear in the links moved. Filtering the transition tables by
    // `id = ANY (moved)` instead read the whole array for every row once the function's statements were planned
    // generically, as a connection does after a few calls: a space of 50,000 links deleted took 4.5 s more.
    const moves = `unnest(moved, old_accounts, old_spaces, new_accounts, new_spaces)
                   AS m("id", "old_account", "old_space", "new_account", "new_space")`;
    const sides = `CROSS JOIN LATERAL (VALUES (m."old_account", m."old_space", -1), (m."new_account", m."new_space", 1))
                   AS s("account_id", "space_id", "sign")`;
    await queryRunner.query(
      triggerFunction(
        'click_rollups_follow_space',
        [
          `SELECT array_agg(n."id" ORDER BY n."id"), array_agg(o."account_id" ORDER BY n."id"),
                array_agg(${SPACE('o')} ORDER BY n."id"), array_agg(n."account_id" ORDER BY n."id"),
                array_agg(${SPACE('n')} ORDER BY n."id")
           INTO moved, old_accounts, old_spaces, new_accounts, new_spaces
           FROM "new_links" n JOIN "old_links" o ON o."id" = n."id"
          WHERE (o."account_id", o."space_id") IS DISTINCT FROM (n."account_id", n."space_id");`,
          'IF moved IS NULL THEN RETURN NULL; END IF;',
          'PERFORM 1 FROM "link_counters" WHERE "link_id" = ANY (moved) ORDER BY "link_id" FOR NO KEY UPDATE;',
          `UPDATE "link_counters" c SET "space_id" = m."new_space" FROM ${moves} WHERE c."link_id" = m."id";`,
          ...rollups.addToShared(
            'space_click_hours',
            `SELECT s."account_id", s."space_id", h."hour", s."sign" * h."clicks" AS "clicks"
                 FROM ${moves} ${sides} JOIN "click_hours" h ON h."link_id" = m."id"`,
          ),
          ...rollups.addToShared(
            'space_click_days',
            `SELECT s."account_id", s."space_id", d."dimension", d."day", ${rollups.SHARED_VALUE} AS "value",
                      s."sign" * d."clicks" AS "clicks"
                 FROM ${moves} ${sides} JOIN "click_days" d ON d."link_id" = m."id"`,
          ),
        ],
        {
          declare: [
            'moved integer[];',
            'old_accounts integer[];',
            'old_spaces integer[];',
            'new_accounts integer[];',
            'new_spaces integer[];',
            ...rollups.emptiedIn('space'),
          ],
        },
      ),
    );
    await queryRunner.query(linkUpdateTrigger('TR_links_rollups_space', 'click_rollups_follow_space'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of rollups.dropShared('space', DELETE_TRIGGER)) await queryRunner.query(statement);
    await queryRunner.query(counterRows(COUNTER_COLUMNS));
    await queryRunner.query(`ALTER TABLE "link_counters" DROP COLUMN "space_id"`);
  }
}
