import type { EventsConfig } from '../../config/app-config';
import { sentinelsOf } from '../../common/redis-server';
import { AmqpSink } from './amqp.sink';
import type { EventSink } from './event-sink';
import { RedisStreamSink } from './redis-stream.sink';

/** The sinks the settings turn on: none, one or both. None connects before its first publish. */
export function eventSinks(config: EventsConfig): EventSink[] {
  const sinks: EventSink[] = [];
  if (config.eventsRedisUrl !== undefined) {
    sinks.push(
      new RedisStreamSink({
        url: config.eventsRedisUrl,
        maxLength: config.eventsRedisMaxlen,
        sentinels: sentinelsOf(config),
        cluster: config.redisCluster,
      }),
    );
  }
  if (config.eventsAmqpUrl !== undefined) sinks.push(new AmqpSink({ url: config.eventsAmqpUrl }));
  return sinks;
}
