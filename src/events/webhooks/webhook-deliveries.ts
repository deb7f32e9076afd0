import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/clock';
import type { OutgoingEvent } from '../outbox/event';
import { WebhookAttempts } from './webhook-attempts.repository';
import type { DeliveryRow } from './webhook.mapper';
import { signatureHeaders } from './webhook-signature';
import { WebhookSender } from './webhook-sender';

/** What an attempt needs of its webhook. */
export interface WebhookTarget {
  id: number;
  url: string;
  secret: string;
}

/**
 * One attempt of one event to one webhook: signed with the webhook's secret as it is now (a rotation signs the
 * next attempt with the new one), sent under the outbound address policy, logged, and told to the webhook's record.
 */
@Injectable()
export class WebhookDeliveries {
  constructor(
    private readonly sender: WebhookSender,
    private readonly attempts: WebhookAttempts,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async attempt(
    webhook: WebhookTarget,
    event: OutgoingEvent,
    attempt: number,
  ): Promise<{ delivered: boolean; row: DeliveryRow }> {
    const at = this.clock.now();
    const headers = signatureHeaders(webhook.secret, event.id, event.body, Math.floor(at / 1000));
    const result = await this.sender.send(webhook.url, headers, event.body);
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const row = await this.attempts.record({
      webhookId: webhook.id,
      eventId: event.id,
      type: event.type,
      attempt,
      status: result.status,
      error: delivered ? null : result.error,
      durationMs: result.durationMs,
      at,
      delivered,
    });
    return { delivered, row };
  }
}
