import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pixel values as phpShort keeps them, since the pixels page now renders them as its templates do: AdRoll's two
 * ids joined by `-` (they were joined by `/`), Google Ads as the bare number (it was `AW-` and the number,
 * sometimes with a conversion label, which phpShort's template has no place for).
 */
export class PixelValues1764400000000 implements MigrationInterface {
  name = 'PixelValues1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "pixels" SET "value" = replace("value", '/', '-') WHERE "type" = 'adroll'`,
    );
    await queryRunner.query(`
      UPDATE "pixels" SET "value" = substring("value" FROM '^AW-([0-9]+)')
       WHERE "type" = 'google-ads' AND "value" ~ '^AW-[0-9]+'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE "pixels" SET "value" = 'AW-' || "value" WHERE "type" = 'google-ads' AND "value" ~ '^[0-9]+$'`);
    await queryRunner.query(`
      UPDATE "pixels" SET "value" = replace("value", '-', '/')
       WHERE "type" = 'adroll' AND "value" ~ '^[A-Z0-9]+-[A-Z0-9]+$'`);
  }
}
