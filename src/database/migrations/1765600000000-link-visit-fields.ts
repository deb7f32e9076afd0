import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a link carries beyond phpShort's fields for its visits (contract §13): the UTM parameters added to its
 * destination, the app links for iOS and Android visitors, the social preview that crawlers are shown, and notes
 * for the people who manage it. Every one is optional; none is read by a list, a count or a filter.
 */
export class LinkVisitFields1765600000000 implements MigrationInterface {
  name = 'LinkVisitFields1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "links"
        ADD "utm_source" character varying(255),
        ADD "utm_medium" character varying(255),
        ADD "utm_campaign" character varying(255),
        ADD "utm_term" character varying(255),
        ADD "utm_content" character varying(255),
        ADD "ios_url" character varying(2048),
        ADD "android_url" character varying(2048),
        ADD "og_title" character varying(200),
        ADD "og_description" character varying(500),
        ADD "og_image_url" character varying(2048),
        ADD "notes" character varying(2000)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "links"
        DROP COLUMN "notes", DROP COLUMN "og_image_url", DROP COLUMN "og_description", DROP COLUMN "og_title",
        DROP COLUMN "android_url", DROP COLUMN "ios_url", DROP COLUMN "utm_content", DROP COLUMN "utm_term",
        DROP COLUMN "utm_campaign", DROP COLUMN "utm_medium", DROP COLUMN "utm_source"`);
  }
}
