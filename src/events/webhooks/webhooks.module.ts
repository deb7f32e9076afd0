import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CLOCK, SYSTEM_CLOCK } from '../../common/clock';
import { webhooksConfig, type WebhooksConfig } from '../../config/app-config';
import { QuotaRepository } from '../../database/quota.repository';
import { Transactions } from '../../database/transactions';
import { DELIVERIES_PER_WEBHOOK, DeliverySlots } from './delivery-slots';
import { WebhookAttempts } from './webhook-attempts.repository';
import { WebhookDeliveries } from './webhook-deliveries';
import { DEFAULT_WEBHOOK_SEND_OPTIONS, WEBHOOK_SEND_OPTIONS, WebhookSender } from './webhook-sender';
import { Webhook } from './webhook.entity';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Webhooks (contract §10): their API, and one signed delivery at a time within the instance's slots. */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook])],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhooksRepository,
    QuotaRepository,
    Transactions,
    WebhookAttempts,
    WebhookDeliveries,
    WebhookSender,
    { provide: CLOCK, useValue: SYSTEM_CLOCK },
    {
      provide: WEBHOOK_SEND_OPTIONS,
      inject: [webhooksConfig.KEY],
      useFactory: (config: WebhooksConfig) => ({
        ...DEFAULT_WEBHOOK_SEND_OPTIONS,
        allowPrivateAddresses: config.webhookAllowPrivateAddresses,
        timeoutMs: config.webhookTimeoutMs,
      }),
    },
    {
      provide: DeliverySlots,
      inject: [webhooksConfig.KEY],
      useFactory: (config: WebhooksConfig) =>
        new DeliverySlots({ concurrency: config.webhookConcurrency, perWebhook: DELIVERIES_PER_WEBHOOK }),
    },
  ],
  exports: [WebhookDeliveries, DeliverySlots, CLOCK],
})
export class WebhooksModule {}
