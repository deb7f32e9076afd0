import type { MigrationInterface, QueryRunner } from 'typeorm';
import { numberedTable } from './sql/tables';

/**
 * The UTM templates a workspace saves for its UTM builder: a name (unique per account regardless of case, as a person
 * reads it) and the five UTM parameters of a link, each optional. Removed with their account, and audited as
 * `utm_template` like the other resources of an account (see the people-and-audit migration).
 */
export class UtmTemplates1766000000000 implements MigrationInterface {
  name = 'UtmTemplates1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      numberedTable(
        'utm_templates',
        [
          '"account_id" integer NOT NULL',
          '"name" character varying(100) NOT NULL',
          '"utm_source" character varying(255)',
          '"utm_medium" character varying(255)',
          '"utm_campaign" character varying(255)',
          '"utm_term" character varying(255)',
          '"utm_content" character varying(255)',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        { account_id: 'accounts' },
      ),
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_utm_templates_account_name" ON "utm_templates" ("account_id", lower("name"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_utm_templates_account_id" ON "utm_templates" ("account_id", "id")`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "audit_utm_templates" AFTER INSERT OR UPDATE OR DELETE ON "utm_templates"
         FOR EACH ROW WHEN (coalesce(current_setting('shortlink.actor', true), '') <> '')
         EXECUTE FUNCTION "audit_change"('utm_template')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "audit_utm_templates" ON "utm_templates"`);
    await queryRunner.query(`DROP TABLE "utm_templates"`);
  }
}
