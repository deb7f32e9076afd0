import { Module } from '@nestjs/common';
import { eventsConfig, webhooksConfig, type EventsConfig, type WebhooksConfig } from '../config/app-config';
import { LinksModule } from '../links/links.module';
import { DELIVERIES_PER_WEBHOOK } from './webhooks/delivery-slots';
import { WebhooksModule } from './webhooks/webhooks.module';
import { EventPayloads } from './event-payloads';
import { EVENT_SINKS, EVENT_WORKER_OPTIONS, EventWorker, type EventWorkerOptions } from './event-worker';
import { EventsRepository } from './events.repository';
import { eventSinks } from './sinks/sinks';

/**
 * The outbox's read side: the worker that sends events to webhooks and streams, and the bodies of events, which the
 * event streams of the API (`stream/`) read too.
 */
@Module({
  imports: [LinksModule, WebhooksModule],
  providers: [
    EventsRepository,
    EventPayloads,
    EventWorker,
    {
      provide: EVENT_SINKS,
      inject: [eventsConfig.KEY],
      useFactory: (config: EventsConfig) => eventSinks(config),
    },
    {
      provide: EVENT_WORKER_OPTIONS,
      inject: [webhooksConfig.KEY, eventsConfig.KEY],
      useFactory: (config: WebhooksConfig, streams: EventsConfig): EventWorkerOptions => ({
        pollMs: 250,
        webhookTimeoutMs: config.webhookTimeoutMs,
        retentionMs: config.eventRetentionDays * 86_400_000,
        backlogMax: config.webhookBacklogMax,
        streamBacklogMax: streams.eventsStreamBacklogMax,
        perWebhook: DELIVERIES_PER_WEBHOOK,
      }),
    },
  ],
  exports: [EventWorker, EventPayloads, EventsRepository],
})
export class EventsModule {}
