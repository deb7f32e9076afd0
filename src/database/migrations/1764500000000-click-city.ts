import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The city of a click, for phpShort's `city` stats: null where no city database is installed. */
export class ClickCity1764500000000 implements MigrationInterface {
  name = 'ClickCity1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "clicks" ADD "city" character varying(128)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "clicks" DROP COLUMN "city"`);
  }
}
