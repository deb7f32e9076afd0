import Redis from 'ioredis';
import type { OutgoingEvent } from '../src/events/outbox/event';
import { RedisStreamSink, type RedisStreamSinkOptions } from '../src/events/sinks/redis-stream.sink';
import {
  describeWithBroker,
  eventually,
  proxyFor,
  testEvents,
  timed,
  uniqueName,
  unreachableUrl,
} from './support/event-brokers';
import { sleep } from './support/sleep';
import type { TcpProxy } from './support/tcp-proxy';

describeWithBroker('EVENTS_TEST_REDIS_URL', 'the Redis stream sink on a Redis server', (redisUrl) => {
  let redis: Redis;
  const sinks: RedisStreamSink[] = [];
  const keys: string[] = [];
  const proxies: TcpProxy[] = [];

  beforeAll(() => {
    redis = new Redis(redisUrl, { lazyConnect: true });
  });

  afterEach(async () => {
    await Promise.all(sinks.splice(0).map((sink) => sink.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    const used = keys.splice(0);
    if (used.length > 0) await redis.del(...used);
  });

  afterAll(async () => {
    await redis.quit();
  });

  /** A sink on a stream of its own, deleted after the test. */
  function sinkOn(options: Partial<RedisStreamSinkOptions> = {}): { sink: RedisStreamSink; key: string } {
    const key = uniqueName('shortlink:events:test');
    keys.push(key);
    const sink = new RedisStreamSink({ url: redisUrl, maxLength: 1_000_000, streamKey: key, ...options });
    sinks.push(sink);
    return { sink, key };
  }

  async function behindProxy(): Promise<{ proxy: TcpProxy; url: string }> {
    const proxied = await proxyFor(redisUrl, 6379);
    proxies.push(proxied.proxy);
    return proxied;
  }

  /** Each entry's fields, oldest first. */
  async function entries(key: string): Promise<string[][]> {
    const rows = await redis.xrange(key, '-', '+');
    return rows.map(([, fields]) => fields);
  }

  function fieldsOf(events: OutgoingEvent[]): string[][] {
    return events.map((event) => ['event', event.body, 'type', event.type, 'id', event.id]);
  }

  it('adds each event in order, with its body, type and id', async () => {
    const { sink, key } = sinkOn();
    const first = testEvents(3);
    const second = testEvents(2, { from: 3 });

    await sink.publish(first);
    await sink.publish(second);

    expect(await entries(key)).toEqual(fieldsOf([...first, ...second]));
  });

  it('adds nothing for an empty batch', async () => {
    const { sink, key } = sinkOn();
    await sink.publish([]);
    expect(await redis.exists(key)).toBe(0);
  });

  it('adds a batch of 1,000 events, in order', async () => {
    const { sink, key } = sinkOn();
    const events = testEvents(1000, { bodyBytes: 1000 });

    await sink.publish(events);

    expect(await entries(key)).toEqual(fieldsOf(events));
  });

  it('keeps the stream at about its maximum length, the newest entries kept', async () => {
    const { sink, key } = sinkOn({ maxLength: 1000 });
    let last: OutgoingEvent[] = [];
    for (let batch = 0; batch < 6; batch += 1) {
      last = testEvents(1000, { from: batch * 1000 });
      await sink.publish(last);
    }

    const length = await redis.xlen(key);
    // Trimmed by whole internal nodes (100 entries by default): never below the maximum, a little above at most.
    expect(length).toBeGreaterThanOrEqual(1000);
    expect(length).toBeLessThan(1200);
    expect((await entries(key)).slice(-1000)).toEqual(fieldsOf(last));
  });

  it('rejects a batch that Redis refuses (its key holds no stream)', async () => {
    const { sink, key } = sinkOn();
    await redis.set(key, 'not a stream');

    await expect(sink.publish(testEvents(3))).rejects.toThrow(/Redis refused an event: WRONGTYPE/);
    expect(await redis.get(key)).toBe('not a stream');
  });

  it('rejects at once when nothing listens, and again while it stays away', async () => {
    const { sink } = sinkOn({ url: await unreachableUrl(redisUrl) });

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { ms, error } = await timed(sink.publish(testEvents(1)));
      expect(error?.message).toMatch(/Redis is unreachable: .*ECONNREFUSED/);
      expect(ms).toBeLessThan(2000);
    }
  });

  it('rejects at once while the connection is cut, and publishes again once Redis is back', async () => {
    const { proxy, url } = await behindProxy();
    const { sink, key } = sinkOn({ url });
    const before = testEvents(2);
    await sink.publish(before);

    proxy.cut();
    const { ms, error } = await timed(sink.publish(testEvents(1, { from: 2 })));
    expect(error?.message).toMatch(/Redis is unreachable/);
    expect(ms).toBeLessThan(2000);

    proxy.restore();
    const after = testEvents(2, { from: 3 });
    await eventually(() => sink.publish(after), 10_000);
    expect(await entries(key)).toEqual(fieldsOf([...before, ...after]));
  });

  it('rejects within its timeout when Redis stops answering, and publishes again once it answers', async () => {
    const { proxy, url } = await behindProxy();
    const { sink, key } = sinkOn({ url, timeoutMs: 1000 });
    const before = testEvents(1);
    await sink.publish(before);

    proxy.freeze();
    const { ms, error } = await timed(sink.publish(testEvents(1, { from: 1 })));
    expect(error?.message).toBe('Redis did not answer within 1000 ms');
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
    // The silent connection is dropped: the next publish waits on a new one, no longer than the timeout either.
    await sleep(300);
    const again = await timed(sink.publish(testEvents(1, { from: 2 })));
    expect(again.error?.message).toMatch(/Redis (did not answer within 1000 ms|is unreachable)/);
    expect(again.ms).toBeLessThan(3000);

    proxy.restore();
    const after = testEvents(1, { from: 3 });
    await eventually(() => sink.publish(after), 10_000);
    const added = await entries(key);
    expect(added[0]).toEqual(fieldsOf(before)[0]);
    expect(added.at(-1)).toEqual(fieldsOf(after)[0]);
  });
});
