import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event streams (`GET /api/v1/events/stream`, contract §14), fed from the outbox:
 * - `event_streams`: one row per stream, open (`closed_at` null, `seen_at` refreshed while it is) or closed within
 *   the hour its client may resume in. An account with a row seen within that hour has every event written (the
 *   outbox's rule), from the row's `opened_at` on; its open rows are what its bound counts, across instances.
 * - `events.txid`: the transaction that wrote the event. A stream reads events in (`txid`, `id`) order, and only
 *   those of transactions older than any still running: an id is taken when the row is written, not when it
 *   commits, so reading by id alone would pass over an event whose transaction commits after a higher id's.
 *   Nullable and set by default from now on, so that the table is not rewritten; older events are never streamed.
 * - `IDX_events_public_id`: `Last-Event-ID` names an event by its public id.
 */
export class EventStreams1766210000000 implements MigrationInterface {
  name = 'EventStreams1766210000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "event_streams" (
        "id" uuid NOT NULL,
        "account_id" integer NOT NULL,
        "opened_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "closed_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_event_streams" PRIMARY KEY ("id"),
        CONSTRAINT "FK_event_streams_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id")
          ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_event_streams_account" ON "event_streams" ("account_id", "seen_at")`,
    );
    await queryRunner.query(`ALTER TABLE "events" ADD "txid" xid8`);
    await queryRunner.query(`ALTER TABLE "events" ALTER COLUMN "txid" SET DEFAULT pg_current_xact_id()`);
    await queryRunner.query(`CREATE INDEX "IDX_events_position" ON "events" ("txid", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_events_public_id" ON "events" ("public_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_events_public_id"`);
    await queryRunner.query(`DROP INDEX "IDX_events_position"`);
    await queryRunner.query(`ALTER TABLE "events" DROP COLUMN "txid"`);
    await queryRunner.query(`DROP TABLE "event_streams"`);
  }
}
