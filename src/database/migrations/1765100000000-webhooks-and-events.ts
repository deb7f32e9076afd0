import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, numberedTable } from './sql/tables';
import { announceChanges } from './sql/triggers';

/**
 * Webhooks and the transactional outbox they and the event streams are fed from (contract §10):
 * - `webhooks`: an account's receivers, the events each takes, its signing secret, and how its deliveries go.
 * - `events`: the outbox. A row is written in the transaction of the change or the click batch that makes it, so a
 *   change that rolls back leaves none. A `link.clicked` event holds its clicks as three arrays (link, time,
 *   profile: 16 bytes a click), decoded when it is sent. `ready` is false while the API completes an event's data
 *   right after its commit (a created or updated link as the API shows it); one left incomplete by a crash is
 *   completed from the link as it is when it is sent. `dispatched` turns true once its deliveries exist.
 * - `event_deliveries`: one per event and target (a webhook, the Redis stream, the RabbitMQ exchange), with its
 *   attempts and the time of the next one; `next_attempt_at` is null once it is done, one way or another.
 * - `webhook_attempts`: the delivery log, one row per attempt, as `GET /api/v1/webhooks/{id}/deliveries` lists it.
 */
export class WebhooksAndEvents1765100000000 implements MigrationInterface {
  name = 'WebhooksAndEvents1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      numberedTable(
        'webhooks',
        [
          '"account_id" integer NOT NULL',
          '"name" character varying(255) NOT NULL',
          '"url" character varying(2048) NOT NULL',
          '"events" text array NOT NULL',
          '"secret" character varying(100) NOT NULL',
          '"enabled" boolean NOT NULL DEFAULT true',
          '"failures" integer NOT NULL DEFAULT 0',
          '"failing_since" TIMESTAMP WITH TIME ZONE',
          '"last_status" smallint',
          '"last_delivery_at" TIMESTAMP WITH TIME ZONE',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        { account_id: 'accounts' },
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_webhooks_account" ON "webhooks" ("account_id", "id")`);
    // Every instance keeps in memory which accounts take which events: a change to webhooks is announced.
    for (const statement of announceChanges('webhooks', 'announce_webhook_changes')) {
      await queryRunner.query(statement);
    }

    await queryRunner.query(
      createTable(
        'events',
        [
          '"id" bigint GENERATED ALWAYS AS IDENTITY',
          "\"public_id\" character varying(36) NOT NULL DEFAULT 'evt_' || replace(gen_random_uuid()::text, '-', '')",
          '"account_id" integer NOT NULL',
          '"type" character varying(32) NOT NULL',
          '"link_id" integer',
          '"data" jsonb',
          '"click_links" integer array',
          '"click_times" TIMESTAMP WITH TIME ZONE array',
          '"click_profiles" integer array',
          '"ready" boolean NOT NULL DEFAULT true',
          '"dispatched" boolean NOT NULL DEFAULT false',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        ['id'],
        { account_id: 'accounts' },
      ),
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_events_undispatched" ON "events" ("id") WHERE NOT "dispatched"`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_events_created" ON "events" ("created_at")`);

    await queryRunner.query(`
      CREATE TABLE "event_deliveries" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "event_id" bigint NOT NULL,
        "webhook_id" integer,
        "sink" smallint NOT NULL,
        "attempts" smallint NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE,
        "outcome" smallint,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_event_deliveries" PRIMARY KEY ("id"),
        CONSTRAINT "FK_event_deliveries_event" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE,
        CONSTRAINT "FK_event_deliveries_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id")
          ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE INDEX "IDX_event_deliveries_due" ON "event_deliveries" ("sink", "next_attempt_at")
       WHERE "next_attempt_at" IS NOT NULL`);
    await queryRunner.query(`
      CREATE INDEX "IDX_event_deliveries_webhook" ON "event_deliveries" ("webhook_id", "next_attempt_at")
       WHERE "next_attempt_at" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_event_deliveries_event" ON "event_deliveries" ("event_id")`);

    await queryRunner.query(`
      CREATE TABLE "webhook_attempts" (
        "id" bigint GENERATED ALWAYS AS IDENTITY,
        "webhook_id" integer NOT NULL,
        "event_id" character varying(36) NOT NULL,
        "type" character varying(32) NOT NULL,
        "attempt" smallint NOT NULL,
        "status" smallint,
        "error" character varying(255),
        "duration_ms" integer NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_webhook_attempts" PRIMARY KEY ("id"),
        CONSTRAINT "FK_webhook_attempts_webhook" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id")
          ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_attempts_webhook" ON "webhook_attempts" ("webhook_id", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_attempts_created" ON "webhook_attempts" ("created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP TABLE "event_deliveries"`);
    await queryRunner.query(`DROP TABLE "events"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
    await queryRunner.query(`DROP FUNCTION "announce_webhook_changes"()`);
  }
}
