import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../../common/dates';
import { ApiDateTime, ApiFlag, ApiInteger, namedEnum } from '../../common/openapi';
import { EVENT_TYPES, type EventType } from '../outbox/event';
import type { Webhook } from './webhook.entity';

/** A webhook as the API answers it: never its secret, but in the answers that make one. */
export class WebhookResponse {
  @ApiInteger({ example: 2 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'CRM' })
  name!: string;

  @ApiProperty({ type: 'string', example: 'https://crm.example.com/hooks/shortlink' })
  url!: string;

  @ApiProperty({ type: 'array', items: namedEnum('EventType', EVENT_TYPES) })
  events!: EventType[];

  @ApiFlag('1 while deliveries are made; 0 once disabled (by the API, or after five days of failures).')
  enabled!: number;

  @ApiInteger({ minimum: 0, description: 'Failed attempts since the last delivered one.' })
  failures!: number;

  @ApiInteger({
    nullable: true,
    description: 'The HTTP status of the last attempt; null before any, or without one.',
  })
  last_status!: number | null;

  @ApiDateTime({ nullable: true, description: 'When the last attempt was made.' })
  last_delivery_at!: string | null;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
}

/** The answers that make a secret (create, rotation) alone add it. */
export class WebhookWithSecretResponse extends WebhookResponse {
  @ApiProperty({
    type: 'string',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signs every delivery (Standard Webhooks): shown this once.',
  })
  secret!: string;
}

export function toWebhookResponse(webhook: Webhook): WebhookResponse {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    events: EVENT_TYPES.filter((type) => webhook.events.includes(type)),
    enabled: webhook.enabled ? 1 : 0,
    failures: webhook.failures,
    last_status: webhook.lastStatus,
    last_delivery_at: isoDate(webhook.lastDeliveryAt),
    created_at: isoDate(webhook.createdAt),
    updated_at: isoDate(webhook.updatedAt),
  };
}

/** One attempt of the delivery log. */
export class DeliveryResponse {
  @ApiInteger({ example: 41 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'evt_2d1f0c8e6b4a4f0e9d7c5b3a19e8f6d4' })
  event_id!: string;

  @ApiProperty({ type: 'string', example: 'link.created', description: 'An event type, or `ping`.' })
  type!: string;

  @ApiInteger({ minimum: 1, description: 'The attempt’s number for this event: 1, then each retry.' })
  attempt!: number;

  @ApiInteger({
    nullable: true,
    description: 'The receiver’s HTTP status; null when none came (timeout, refused).',
  })
  status!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'Why it failed; null when delivered.',
  })
  error!: string | null;

  @ApiInteger({ minimum: 0 })
  duration_ms!: number;

  @ApiDateTime()
  created_at!: string;
}

/** A row of the delivery log, as the repository reads it. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  attempt: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

export function toDeliveryResponse(row: DeliveryRow): DeliveryResponse {
  return {
    id: Number(row.id),
    event_id: row.event_id,
    type: row.type,
    attempt: row.attempt,
    status: row.status,
    error: row.error,
    duration_ms: row.duration_ms,
    created_at: isoDate(row.created_at),
  };
}
