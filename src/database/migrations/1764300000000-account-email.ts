import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An account's email, as phpShort's account resource reports it: set with the CLI, null until then. */
export class AccountEmail1764300000000 implements MigrationInterface {
  name = 'AccountEmail1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts" ADD "email" character varying(255)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts" DROP COLUMN "email"`);
  }
}
