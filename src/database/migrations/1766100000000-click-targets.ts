import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The `clicks` view as the click-rollups migration made it: the columns of the former table. */
const VIEW_COLUMNS = `
      SELECT e."link_id", e."created_at",
             referrer."value" AS "referrer", country."value" AS "country",
             substr(city."value", strpos(city."value", ':') + 1) AS "city",
             continent."value" AS "continent", browser."value" AS "browser", os."value" AS "operating_system",
             device."value" AS "device", language."value" AS "language"`;
const VIEW_JOINS = `
        FROM "click_events" e
        JOIN "click_profiles" p ON p."id" = e."profile_id"
        LEFT JOIN "click_values" referrer ON referrer."id" = p."referrer"
        LEFT JOIN "click_values" country ON country."id" = p."country"
        LEFT JOIN "click_values" city ON city."id" = p."city"
        LEFT JOIN "click_values" continent ON continent."id" = p."continent"
        LEFT JOIN "click_values" browser ON browser."id" = p."browser"
        LEFT JOIN "click_values" os ON os."id" = p."operating_system"
        LEFT JOIN "click_values" device ON device."id" = p."device"
        LEFT JOIN "click_values" language ON language."id" = p."language"`;

/**
 * Which destination each click was sent to, so that stats count clicks per target (`name=target`, contract §13).
 *
 * - `click_events.target_id`: the destination's text in `click_values` under dimension 9; 0 when the click went to
 *   the link's own `url`; null when it was not recorded (clicks from before this migration, imported history, rows
 *   inserted into the `clicks` view). A column of its own rather than a ninth code of the profile: profiles are
 *   shared by every link, destinations are a link's own, and together they would multiply.
 * - `click_days` rows of dimension 9 count the recorded ones, written by the same rollup as the other dimensions.
 * - The `clicks` view gains `target`: the destination's URL (the link's `url` as it is now for 0), null where none
 *   was recorded. Joins the view's readers leave unused are removed by the planner (unique keys): an export of the
 *   other columns costs what it did.
 *
 * Adding a nullable column without a default rewrites nothing, however many clicks there are. Clicks before it
 * keep no target: which turn of a rotation each got was never stored, and guessing would make up history.
 */
export class ClickTargets1766100000000 implements MigrationInterface {
  name = 'ClickTargets1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "click_events" ADD "target_id" integer`);
    // A view gains columns at its end only.
    await queryRunner.query(`
      CREATE OR REPLACE VIEW "clicks" AS${VIEW_COLUMNS},
             CASE WHEN e."target_id" = 0 THEN l."url" ELSE target."value" END AS "target"${VIEW_JOINS}
        LEFT JOIN "click_values" target ON target."id" = e."target_id"
        LEFT JOIN "links" l ON l."id" = e."link_id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW "clicks"`);
    await queryRunner.query(`CREATE VIEW "clicks" AS${VIEW_COLUMNS}${VIEW_JOINS}`);
    await queryRunner.query(
      `CREATE TRIGGER "TR_clicks_record" INSTEAD OF INSERT ON "clicks" FOR EACH ROW EXECUTE FUNCTION "record_click"()`,
    );
    await queryRunner.query(`DELETE FROM "click_days" WHERE "dimension" = 9`);
    await queryRunner.query(`DELETE FROM "click_values" WHERE "dimension" = 9`);
    await queryRunner.query(`ALTER TABLE "click_events" DROP COLUMN "target_id"`);
  }
}
