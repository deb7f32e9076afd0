import { Global, Module } from '@nestjs/common';
import { eventsConfig, type EventsConfig } from '../../config/app-config';
import { EVENT_STREAMS, EventInterest } from './event-interest';
import { EventOutbox } from './event-outbox';
import { OutboxRepository } from './outbox.repository';

/**
 * The write side of the outbox: who takes which events, and the events of changes. Every writer of links and
 * clicks uses it, so it is global, and it depends on nothing but the database.
 */
@Global()
@Module({
  providers: [
    EventInterest,
    EventOutbox,
    OutboxRepository,
    {
      provide: EVENT_STREAMS,
      inject: [eventsConfig.KEY],
      useFactory: (config: EventsConfig) =>
        config.eventsRedisUrl !== undefined || config.eventsAmqpUrl !== undefined,
    },
  ],
  exports: [EventInterest, EventOutbox, EVENT_STREAMS],
})
export class OutboxModule {}
