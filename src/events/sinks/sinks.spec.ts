import { eventsConfig } from '../../config/app-config';
import { AmqpSink } from './amqp.sink';
import type { EventSink } from './event-sink';
import { RedisStreamSink } from './redis-stream.sink';
import { eventSinks } from './sinks';

describe('eventSinks', () => {
  const made: EventSink[] = [];

  function sinksFor(env: Record<string, string>): EventSink[] {
    const sinks = eventSinks(eventsConfig.from(env));
    made.push(...sinks);
    return sinks;
  }

  afterEach(async () => {
    await Promise.all(made.splice(0).map((sink) => sink.close()));
  });

  it('makes none without a broker URL', () => {
    expect(sinksFor({})).toEqual([]);
  });

  it('makes the Redis stream sink for EVENTS_REDIS_URL', () => {
    const sinks = sinksFor({ EVENTS_REDIS_URL: 'redis://127.0.0.1:1' });
    expect(sinks.map((sink) => sink.name)).toEqual(['redis']);
    expect(sinks[0]).toBeInstanceOf(RedisStreamSink);
  });

  it('makes the AMQP sink for EVENTS_AMQP_URL', () => {
    const sinks = sinksFor({ EVENTS_AMQP_URL: 'amqp://127.0.0.1:1' });
    expect(sinks.map((sink) => sink.name)).toEqual(['amqp']);
    expect(sinks[0]).toBeInstanceOf(AmqpSink);
  });

  it('makes both when both are set', () => {
    const sinks = sinksFor({
      EVENTS_REDIS_URL: 'rediss://cache:6380/2',
      EVENTS_AMQP_URL: 'amqps://mq/vhost',
    });
    expect(sinks.map((sink) => sink.name)).toEqual(['redis', 'amqp']);
  });

  it('refuses a publish on a closed sink', async () => {
    for (const sink of sinksFor({
      EVENTS_REDIS_URL: 'redis://127.0.0.1:1',
      EVENTS_AMQP_URL: 'amqp://127.0.0.1:1',
    })) {
      await sink.close();
      await expect(sink.publish([{ id: 'evt_1', type: 'ping', body: '{}' }])).rejects.toThrow(
        /event sink is closed/,
      );
    }
  });
});
