import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A migration that adds one column, and drops it when reverted. Migrations are history: what this runs must never
 * change; a migration that wants more is a class of its own.
 */
export abstract class AddColumn implements MigrationInterface {
  abstract readonly name: string;

  constructor(
    private readonly table: string,
    private readonly column: string,
    private readonly type: string,
  ) {}

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${this.table}" ADD "${this.column}" ${this.type}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "${this.table}" DROP COLUMN "${this.column}"`);
  }
}
