import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, numberedTable } from './sql/tables';

/**
 * Imports from other shorteners (contract §12).
 *
 * - `imports`: one job each, its progress and errors as the API answers them, where its reading stands (`cursor`,
 *   the source's own text for its next page) and the lease of the instance running it, which another takes over
 *   once it lapses (a restart, a `kill -9`). The source's credentials stay only while the job may still run.
 *   At most one import of a workspace runs at a time: the others wait, queued.
 * - `imported_links`: which link each of a source's links became, by the source's own id: a second run (or the
 *   rest of an interrupted one) creates nothing twice. Written in the transaction that writes the link and its
 *   click history, so there is never one without the other. A deleted link's record goes with it.
 */
export class Imports1765500000000 implements MigrationInterface {
  name = 'Imports1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      numberedTable(
        'imports',
        [
          '"account_id" integer NOT NULL',
          '"source" character varying(16) NOT NULL',
          '"source_origin" text NOT NULL',
          '"status" character varying(16) NOT NULL DEFAULT \'queued\'',
          '"dry_run" boolean NOT NULL DEFAULT false',
          '"on_conflict" character varying(8) NOT NULL DEFAULT \'skip\'',
          '"options" jsonb NOT NULL DEFAULT \'{}\'',
          '"credentials" jsonb',
          '"cursor" text',
          '"links_total" integer',
          '"links_done" integer NOT NULL DEFAULT 0',
          '"links_created" integer NOT NULL DEFAULT 0',
          '"links_updated" integer NOT NULL DEFAULT 0',
          '"links_skipped" integer NOT NULL DEFAULT 0',
          '"links_failed" integer NOT NULL DEFAULT 0',
          '"clicks_imported" bigint NOT NULL DEFAULT 0',
          '"errors" jsonb NOT NULL DEFAULT \'[]\'',
          '"cancel_requested" boolean NOT NULL DEFAULT false',
          '"lease_until" TIMESTAMP WITH TIME ZONE',
          '"lease_token" text',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"started_at" TIMESTAMP WITH TIME ZONE',
          '"finished_at" TIMESTAMP WITH TIME ZONE',
        ],
        { account_id: 'accounts' },
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_imports_account" ON "imports" ("account_id", "id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_imports_running_account" ON "imports" ("account_id") WHERE "status" = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_imports_waiting" ON "imports" ("id") WHERE "status" IN ('queued', 'running')`,
    );
    await queryRunner.query(
      createTable(
        'imported_links',
        [
          '"account_id" integer NOT NULL',
          '"source_origin" text NOT NULL',
          '"source_id" text NOT NULL',
          '"link_id" integer NOT NULL',
          '"tags" jsonb NOT NULL DEFAULT \'[]\'',
        ],
        ['account_id', 'source_origin', 'source_id'],
        { link_id: 'links' },
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_imported_links_link" ON "imported_links" ("link_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "imported_links"`);
    await queryRunner.query(`DROP TABLE "imports"`);
  }
}
