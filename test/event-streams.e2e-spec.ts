import { connect, type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import Redis from 'ioredis';
import { EventWorker } from '../src/events/event-worker';
import { ClickWriter } from '../src/clicks/click-writer';
import { deliverAll, onClock, TestClock } from './support/clock';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { eventually, proxyFor } from './support/event-brokers';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import type { TcpProxy } from './support/tcp-proxy';
import { createLink, UA, unique } from './support/visitors';

/**
 * The outbox to the event streams, end to end against the real brokers: with `EVENTS_REDIS_URL` and
 * `EVENTS_AMQP_URL`, every event of every account reaches the Redis stream `shortlink:events` and the RabbitMQ
 * exchange `shortlink.events` once, with the webhook's body; a broker that is down delays its events and loses
 * none. Both URLs come from the test variables `.ci/run` sets; without them the file is skipped.
 */

const redisUrl = process.env.EVENTS_TEST_REDIS_URL ?? '';
const amqpUrl = process.env.EVENTS_TEST_AMQP_URL ?? '';
const describeWithBrokers = redisUrl !== '' && amqpUrl !== '' ? describe : describe.skip;

interface Event {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

describeWithBrokers('event streams from the outbox (EVENTS_TEST_REDIS_URL and EVENTS_TEST_AMQP_URL)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let worker: EventWorker;
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let redis: Redis;
  let amqp: ChannelModel;
  let channel: Channel;
  let queue: string;
  let streamFrom = '0-0';
  const clock = new TestClock();
  const messages: ConsumeMessage[] = [];
  const { call, json } = apiClient(() => t);

  const deliver = () => deliverAll(worker);

  /** The stream's entries since the test began that belong to this file's account. */
  async function streamEvents(): Promise<{ fields: Record<string, string>; event: Event }[]> {
    const entries = await redis.xrange('shortlink:events', streamFrom, '+');
    return entries
      .map(([, flat]) => {
        const fields: Record<string, string> = {};
        for (let index = 0; index < flat.length; index += 2) fields[flat[index]] = flat[index + 1];
        return { fields, event: JSON.parse(fields.event) as Event };
      })
      .filter(({ event }) => ours(event));
  }

  const linkIds = new Set<number>();
  function ours(event: Event): boolean {
    const data = event.data;
    if (Array.isArray(data.clicks))
      return (data.clicks as { link_id: number }[]).some((c) => linkIds.has(c.link_id));
    return linkIds.has(data.id as number);
  }

  function amqpEvents(): { message: ConsumeMessage; event: Event }[] {
    return messages
      .map((message) => ({ message, event: JSON.parse(message.content.toString('utf8')) as Event }))
      .filter(({ event }) => ours(event));
  }

  beforeAll(async () => {
    // A database of its own: no other file's app or server fans these events out without the streams.
    scratch = await scratchDatabase('shortlink_streams');
    ({ proxy, url: proxied } = await proxyFor(amqpUrl, 5672));
    redis = new Redis(redisUrl);
    const last = await redis.xrevrange('shortlink:events', '+', '-', 'COUNT', 1);
    streamFrom = last.length === 0 ? '0-0' : `(${last[0][0]}`;
    amqp = await connect(amqpUrl);
    channel = await amqp.createChannel();
    await channel.assertExchange('shortlink.events', 'topic', { durable: true });
    queue = (await channel.assertQueue('', { exclusive: true, autoDelete: true })).queue;
    await channel.bindQueue(queue, 'shortlink.events', '#');
    await channel.consume(
      queue,
      (message) => {
        if (message !== null) messages.push(message);
      },
      { noAck: true },
    );

    t = await createTestApp(
      {
        DATABASE_URL: scratch.url,
        RATE_LIMIT_PER_MINUTE: '0',
        EVENTS_REDIS_URL: redisUrl,
        EVENTS_AMQP_URL: proxied,
      },
      onClock(clock, {
        pollMs: null,
        webhookTimeoutMs: 1000,
        retentionMs: 7 * 86_400_000,
        backlogMax: 100_000,
        streamBacklogMax: 1_000_000,
        perWebhook: 2,
      }),
    );
    worker = t.app.get(EventWorker);
    owner = await createAccount(t, 'Streams');
  });
  let proxied = '';
  afterAll(async () => {
    await t?.close();
    await channel?.close().catch(() => undefined);
    await amqp?.close().catch(() => undefined);
    redis?.disconnect();
    await proxy?.close();
    await scratch?.drop();
  });

  it('sends every event of an account without webhooks to both streams, once, with the type as routing key', async () => {
    const link = await createLink(t, owner, { url: 'https://example.com/streamed', alias: unique('s') });
    linkIds.add(link.id);
    await json(owner, 'patch', `/api/v1/links/${link.id}`, { title: 'Streamed' });
    for (let n = 0; n < 3; n += 1) await t.http().get(`/${link.alias}`).set('User-Agent', UA.macSafari);
    await t.app.get(ClickWriter).settle();
    await call(owner, 'delete', `/api/v1/links/${link.id}`);
    await deliver();

    await eventually(() => Promise.resolve(expect(amqpEvents().length).toBeGreaterThanOrEqual(4)), 5000);
    const fromRedis = await streamEvents();
    const fromAmqp = amqpEvents();
    for (const events of [fromRedis.map((entry) => entry.event), fromAmqp.map((entry) => entry.event)]) {
      // The three visits may have been written in one batch or more: one link.clicked event each.
      const clicked = events.filter((event) => event.type === 'link.clicked');
      expect(clicked.flatMap((event) => event.data.clicks as unknown[])).toHaveLength(3);
      expect(
        events
          .filter((event) => event.type !== 'link.clicked')
          .map((event) => event.type)
          .sort(),
      ).toEqual(['link.created', 'link.deleted', 'link.updated']);
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    }
    expect(fromRedis.map(({ event }) => event.id).sort()).toEqual(
      fromAmqp.map(({ event }) => event.id).sort(),
    );
    // The same bytes everywhere: the stream entry and the message carry the event as a webhook would.
    const byId = new Map(fromAmqp.map(({ message }) => [message.properties.messageId as string, message]));
    for (const { fields, event } of fromRedis) {
      const message = byId.get(event.id)!;
      expect(message.content.toString('utf8')).toBe(fields.event);
      expect(message.fields.routingKey).toBe(event.type);
      expect(message.properties.deliveryMode).toBe(2);
      expect(message.properties.contentType).toBe('application/json');
    }
  });

  it('keeps events while RabbitMQ is down and sends them once it is back, none lost, Redis unaffected', async () => {
    proxy.cut();
    const made: number[] = [];
    for (let n = 0; n < 5; n += 1) {
      const link = await createLink(t, owner, { url: `https://example.com/down/${n}` });
      linkIds.add(link.id);
      made.push(link.id);
    }
    await deliver();
    const created = (events: Event[]) =>
      events.filter((event) => event.type === 'link.created' && made.includes(event.data.id as number));
    // Redis took them at once; RabbitMQ none.
    expect(created((await streamEvents()).map((entry) => entry.event))).toHaveLength(5);
    expect(created(amqpEvents().map((entry) => entry.event))).toHaveLength(0);
    const [{ pending }] = await t.dataSource.query<{ pending: number }[]>(
      'SELECT count(*)::int AS pending FROM event_deliveries WHERE sink = 3 AND next_attempt_at IS NOT NULL',
    );
    expect(pending).toBeGreaterThanOrEqual(5);

    proxy.restore();
    clock.advance(61_000);
    await deliver();
    await eventually(
      () => Promise.resolve(expect(created(amqpEvents().map((entry) => entry.event))).toHaveLength(5)),
      10_000,
    );
    expect(created((await streamEvents()).map((entry) => entry.event))).toHaveLength(5);
  });
});
