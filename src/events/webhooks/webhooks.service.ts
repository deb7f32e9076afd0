import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Owner } from '../../auth/owner';
import { CLOCK, type Clock } from '../../common/clock';
import { isoDate } from '../../common/dates';
import {
  ResourceNotFoundException,
  TooManyAttemptsException,
  UnauthorizedActionException,
  ValidationFailedException,
} from '../../common/exceptions';
import { mapPage, type Page } from '../../common/pagination';
import { quotasConfig, type QuotasConfig } from '../../config/app-config';
import type { OutgoingEvent } from '../outbox/event';
import { EventInterest } from '../outbox/event-interest';
import type {
  CreateWebhookDto,
  DeliveryListQueryDto,
  UpdateWebhookDto,
  WebhookListQueryDto,
} from './dto/webhook.dto';
import { DeliverySlots } from './delivery-slots';
import { WebhookAttempts } from './webhook-attempts.repository';
import { WebhookDeliveries } from './webhook-deliveries';
import { WEBHOOK_SEND_OPTIONS, WebhookSender, type WebhookSendOptions } from './webhook-sender';
import { generateWebhookSecret } from './webhook-signature';
import type { Webhook } from './webhook.entity';
import {
  toDeliveryResponse,
  toWebhookResponse,
  type DeliveryResponse,
  type WebhookResponse,
  type WebhookWithSecretResponse,
} from './webhook.mapper';
import { WebhooksRepository } from './webhooks.repository';

/**
 * An account's webhooks. They take the events of every link of the account, so only a key that reaches every
 * space may see or change them: one restricted to spaces would learn of links beyond them.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly attempts: WebhookAttempts,
    private readonly deliveries: WebhookDeliveries,
    private readonly sender: WebhookSender,
    private readonly slots: DeliverySlots,
    @Inject(WEBHOOK_SEND_OPTIONS) private readonly sendOptions: WebhookSendOptions,
    private readonly interest: EventInterest,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {}

  async list(owner: Owner, query: WebhookListQueryDto): Promise<Page<WebhookResponse>> {
    everySpace(owner);
    return mapPage(await this.webhooks.list(owner.accountId, query), toWebhookResponse);
  }

  async show(owner: Owner, id: number): Promise<WebhookResponse> {
    return toWebhookResponse(await this.find(owner, id));
  }

  async create(owner: Owner, dto: CreateWebhookDto): Promise<WebhookWithSecretResponse> {
    everySpace(owner);
    await this.checkUrl(dto.url);
    const webhook = await this.webhooks.createWithinQuota(
      {
        accountId: owner.accountId,
        name: dto.name,
        url: dto.url,
        events: [...new Set(dto.events)],
        secret: generateWebhookSecret(),
        enabled: dto.enabled ?? true,
        failures: 0,
        failingSince: null,
        lastStatus: null,
        lastDeliveryAt: null,
      },
      this.quotas.maxWebhooksPerAccount,
    );
    this.interest.changed();
    return { ...toWebhookResponse(await this.find(owner, webhook.id)), secret: webhook.secret };
  }

  async update(owner: Owner, id: number, dto: UpdateWebhookDto): Promise<WebhookResponse> {
    const webhook = await this.find(owner, id);
    if (dto.url !== undefined) await this.checkUrl(dto.url);
    const changes: Partial<Webhook> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.url !== undefined) changes.url = dto.url;
    if (dto.events !== undefined) changes.events = [...new Set(dto.events)];
    if (dto.enabled !== undefined) {
      changes.enabled = dto.enabled;
      // Enabled again by hand: its failures are behind it, and five more days of them would disable it again.
      if (dto.enabled && !webhook.enabled) Object.assign(changes, { failures: 0, failingSince: null });
    }
    await this.webhooks.update(owner.accountId, id, changes);
    this.interest.changed();
    return this.show(owner, id);
  }

  async remove(owner: Owner, id: number): Promise<void> {
    const webhook = await this.find(owner, id);
    await this.webhooks.delete(owner.accountId, webhook.id);
    this.interest.changed();
  }

  /** A new secret, from the next attempt on; the old one signs nothing more. */
  async rotateSecret(owner: Owner, id: number): Promise<WebhookWithSecretResponse> {
    await this.find(owner, id);
    const secret = generateWebhookSecret();
    await this.webhooks.update(owner.accountId, id, { secret });
    return { ...(await this.show(owner, id)), secret };
  }

  async deliveryLog(owner: Owner, id: number, query: DeliveryListQueryDto): Promise<Page<DeliveryResponse>> {
    await this.find(owner, id);
    const { page, perPage } = query.pageRequest();
    const rows = await this.attempts.list(id, page, perPage);
    return { items: rows.items.map(toDeliveryResponse), total: rows.total };
  }

  /**
   * A `ping` sent at once, outside the outbox and its retries, whatever the webhook takes: its log row. It takes a
   * delivery slot like any delivery (two per webhook, `WEBHOOK_CONCURRENCY` per instance); with none free it is a
   * 429 whose `Retry-After` is the longest a delivery under way can still take.
   */
  async ping(owner: Owner, id: number): Promise<DeliveryResponse> {
    const webhook = await this.find(owner, id);
    const slot = this.slots.tryAcquire(webhook.id);
    if (slot === null) throw new TooManyAttemptsException(this.sendOptions.timeoutMs);
    try {
      return await this.sendPing(webhook);
    } finally {
      slot.release();
    }
  }

  private async sendPing(webhook: Webhook): Promise<DeliveryResponse> {
    const envelope = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'ping' as const,
      created_at: isoDate(new Date(this.clock.now())),
      data: { webhook_id: webhook.id },
    };
    const event: OutgoingEvent = { id: envelope.id, type: 'ping', body: JSON.stringify(envelope) };
    const { row } = await this.deliveries.attempt(webhook, event, 1);
    return toDeliveryResponse(row);
  }

  private async checkUrl(url: string): Promise<void> {
    const refusal = await this.sender.refusal(url);
    if (refusal !== null) throw ValidationFailedException.of('url', refusal);
  }

  private async find(owner: Owner, id: number): Promise<Webhook> {
    everySpace(owner);
    const webhook = await this.webhooks.findOwned(owner.accountId, id);
    if (webhook === null) throw new ResourceNotFoundException();
    return webhook;
  }
}

/** Webhooks take every link's events: a key restricted to spaces may not see them. */
function everySpace(owner: Owner): void {
  if (owner.spaceIds !== null) throw new UnauthorizedActionException();
}
