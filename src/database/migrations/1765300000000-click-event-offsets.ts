import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A `link.clicked` event keeps its clicks' times as milliseconds after its first (`click_base` and `click_offsets`,
 * 4 bytes a click instead of 8), which the service turns into text far more cheaply than PostgreSQL turns
 * timestamps: the event's JSON is now built by the service from its links', profiles' and times' parts.
 * `click_times` stays for events written before, and by instances of the previous version during a rolling
 * update; those are read as they are. A later migration may drop it once no instance writes it.
 */
export class ClickEventOffsets1765300000000 implements MigrationInterface {
  name = 'ClickEventOffsets1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "events" ADD "click_base" TIMESTAMP WITH TIME ZONE, ADD "click_offsets" integer array`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Events written with offsets get their times back, so that the previous version can send them.
    await queryRunner.query(`
      UPDATE "events" SET "click_times" = ARRAY(
        SELECT "click_base" + o * interval '1 millisecond' FROM unnest("click_offsets") WITH ORDINALITY AS u(o, n)
         ORDER BY n)
       WHERE "click_offsets" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "click_offsets", DROP COLUMN "click_base"`);
  }
}
