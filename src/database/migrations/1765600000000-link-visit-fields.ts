import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns } from './sql/tables';

/**
 * What a link carries beyond phpShort's fields for its visits (contract §13): the UTM parameters added to its
 * destination, the app links for iOS and Android visitors, the social preview that crawlers are shown, and notes
 * for the people who manage it. Every one is optional; none is read by a list, a count or a filter.
 */
export class LinkVisitFields1765600000000 implements MigrationInterface {
  name = 'LinkVisitFields1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      addColumns('links', [
        '"utm_source" character varying(255)',
        '"utm_medium" character varying(255)',
        '"utm_campaign" character varying(255)',
        '"utm_term" character varying(255)',
        '"utm_content" character varying(255)',
        '"ios_url" character varying(2048)',
        '"android_url" character varying(2048)',
        '"og_title" character varying(200)',
        '"og_description" character varying(500)',
        '"og_image_url" character varying(2048)',
        '"notes" character varying(2000)',
      ]),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE "links"
        DROP COLUMN "notes", DROP COLUMN "og_image_url", DROP COLUMN "og_description", DROP COLUMN "og_title",
        DROP COLUMN "android_url", DROP COLUMN "ios_url", DROP COLUMN "utm_content", DROP COLUMN "utm_term",
        DROP COLUMN "utm_campaign", DROP COLUMN "utm_medium", DROP COLUMN "utm_source"`);
  }
}
