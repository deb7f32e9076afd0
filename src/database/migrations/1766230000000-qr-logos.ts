import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The logos QR codes draw with `logo=1` (contract §14): a link's own, else its workspace's. A table each, one row
 * at most per link or account by its primary key, removed with it; the image is at most 64 KB, kept out of line by
 * TOAST, so `links` and `accounts` rows stay as narrow as every visit and list reads them. `digest` (SHA-256, hex)
 * names the logo in the cache of drawn codes, read without the image. Not audited: the audit log would copy the
 * image into every entry.
 */
/** A table of logos, one per row of `owners`, keyed and removed with it. */
function logoTable(table: string, key: string, owners: string, owner: string): string {
  return `
      CREATE TABLE "${table}" (
        "${key}" integer NOT NULL,
        "content_type" character varying(13) NOT NULL,
        "image" bytea NOT NULL,
        "digest" character varying(64) NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_${table}" PRIMARY KEY ("${key}"),
        CONSTRAINT "FK_${table}_${owner}" FOREIGN KEY ("${key}") REFERENCES "${owners}"("id") ON DELETE CASCADE
      )`;
}

export class QrLogos1766230000000 implements MigrationInterface {
  name = 'QrLogos1766230000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(logoTable('link_qr_logos', 'link_id', 'links', 'link'));
    await queryRunner.query(logoTable('account_qr_logos', 'account_id', 'accounts', 'account'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "account_qr_logos"`);
    await queryRunner.query(`DROP TABLE "link_qr_logos"`);
  }
}
