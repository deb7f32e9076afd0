import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable } from './sql/tables';

/** A table of logos, one per row of `owners`, keyed and removed with it. */
function logoTable(table: string, key: string, owners: string): string {
  return createTable(
    table,
    [
      `"${key}" integer NOT NULL`,
      '"content_type" character varying(13) NOT NULL',
      '"image" bytea NOT NULL',
      '"digest" character varying(64) NOT NULL',
      '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
    ],
    [key],
    { [key]: owners },
  );
}

/**
 * The logos QR codes draw with `logo=1` (contract §14): a link's own, else its workspace's. A table each, one row
 * at most per link or account by its primary key, removed with it; the image is at most 64 KB, kept out of line by
 * TOAST, so `links` and `accounts` rows stay as narrow as every visit and list reads them. `digest` (SHA-256, hex)
 * names the logo in the cache of drawn codes, read without the image. Not audited: the audit log would copy the
 * image into every entry.
 */
export class QrLogos1766230000000 implements MigrationInterface {
  name = 'QrLogos1766230000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(logoTable('link_qr_logos', 'link_id', 'links'));
    await queryRunner.query(logoTable('account_qr_logos', 'account_id', 'accounts'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "account_qr_logos"`);
    await queryRunner.query(`DROP TABLE "link_qr_logos"`);
  }
}
