import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The files a domain serves for the apps its links open (contract §13): Apple's `apple-app-site-association` and
 * Android's `assetlinks.json`, each a JSON document of at most 64 KB, kept as it was given.
 */
export class DomainAppFiles1765700000000 implements MigrationInterface {
  name = 'DomainAppFiles1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "domains" ADD "apple_app_site_association" text, ADD "assetlinks" text`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "domains" DROP COLUMN "assetlinks", DROP COLUMN "apple_app_site_association"`,
    );
  }
}
