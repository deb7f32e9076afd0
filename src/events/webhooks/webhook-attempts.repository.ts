import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Page } from '../../common/pagination';
import { PreparedStatements } from '../../database/prepared-statements';
import type { DeliveryRow } from './webhook.mapper';

/** Five days of failures, and a webhook is disabled (contract §10). */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/** One attempt as the log keeps it. */
export interface Attempt {
  webhookId: number;
  eventId: string;
  type: string;
  attempt: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** When it was made (ms since the epoch). */
  at: number;
  delivered: boolean;
}

/** The delivery log of webhooks, and what each attempt tells its webhook. */
@Injectable()
export class WebhookAttempts {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly statements: PreparedStatements,
  ) {}

  /**
   * Logs an attempt and brings its webhook's record up to date in one statement: a delivery forgets the failures;
   * a failure counts, and the first of a run is remembered, so that five days of them disable the webhook.
   * Returns the log's row.
   */
  async record(attempt: Attempt): Promise<DeliveryRow> {
    const at = new Date(attempt.at);
    const [row] = await this.statements.query<DeliveryRow>(
      {
        name: 'webhook_attempt_record',
        text: `WITH logged AS (
         INSERT INTO webhook_attempts (webhook_id, event_id, type, attempt, status, error, duration_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING id::text, event_id, type, attempt, status, error, duration_ms, created_at
       ), noted AS (
         UPDATE webhooks SET
           last_status = $5, last_delivery_at = $8,
           failures = CASE WHEN $9 THEN 0 ELSE failures + 1 END,
           failing_since = CASE WHEN $9 THEN NULL ELSE COALESCE(failing_since, $8) END,
           enabled = enabled AND ($9 OR COALESCE(failing_since, $8) > $8 - $10 * interval '1 millisecond')
         WHERE id = $1
       )
       SELECT * FROM logged`,
      },
      [
        attempt.webhookId,
        attempt.eventId,
        attempt.type,
        attempt.attempt,
        attempt.status,
        attempt.error,
        attempt.durationMs,
        at,
        attempt.delivered,
        DISABLE_AFTER_MS,
      ],
    );
    return row;
  }

  /** A webhook's log, newest first. */
  async list(webhookId: number, page: number, perPage: number): Promise<Page<DeliveryRow>> {
    const [items, [{ total }]] = await Promise.all([
      this.dataSource.query<DeliveryRow[]>(
        `SELECT id::text, event_id, type, attempt, status, error, duration_ms, created_at
           FROM webhook_attempts WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
        [webhookId, perPage, (page - 1) * perPage],
      ),
      this.dataSource.query<{ total: number }[]>(
        'SELECT count(*)::int AS total FROM webhook_attempts WHERE webhook_id = $1',
        [webhookId],
      ),
    ]);
    return { items, total };
  }
}
