import type { MigrationInterface, QueryRunner } from 'typeorm';
import { VIEW_COLUMNS, VIEW_JOINS } from './sql/clicks-view';

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
