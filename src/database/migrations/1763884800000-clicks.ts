import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of a raw click, each on a line of its own: reverting the rollups makes this table again. */
export const RAW_CLICK_COLUMNS = `
        "id" BIGSERIAL NOT NULL,
        "link_id" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "referrer" character varying(255),
        "country" character varying(2),
        "continent" character varying(2),
        "browser" character varying(64),
        "operating_system" character varying(64),
        "device" character varying(32),
        "language" character varying(2),`;

export class Clicks1763884800000 implements MigrationInterface {
  name = 'Clicks1763884800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "clicks" (${RAW_CLICK_COLUMNS}
        CONSTRAINT "PK_clicks" PRIMARY KEY ("id"),
        CONSTRAINT "FK_clicks_link" FOREIGN KEY ("link_id") REFERENCES "links"("id") ON DELETE CASCADE
      )`);
    // Every stats query reads one link's clicks over a time range.
    await queryRunner.query(`CREATE INDEX "IDX_clicks_link_created" ON "clicks" ("link_id", "created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "clicks"`);
  }
}
