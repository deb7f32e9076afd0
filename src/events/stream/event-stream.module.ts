import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { EventsModule } from '../events.module';
import { EventStreamController } from './event-stream.controller';
import { EventStreamRepository } from './event-stream.repository';
import { DEFAULT_EVENT_STREAM_TIMING, EVENT_STREAM_TIMING, EventStreamReader } from './event-stream-reader';
import { EventStreams } from './event-streams';

/**
 * The event streams of the API (contract §14): server-sent events of the outbox's events, one reader per instance
 * for every stream open on it.
 */
@Module({
  imports: [AuthModule, EventsModule],
  controllers: [EventStreamController],
  providers: [
    EventStreams,
    EventStreamReader,
    EventStreamRepository,
    { provide: EVENT_STREAM_TIMING, useValue: DEFAULT_EVENT_STREAM_TIMING },
  ],
})
export class EventStreamModule {}
