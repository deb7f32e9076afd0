import {
  connect,
  type Channel,
  type ChannelModel,
  type ConfirmChannel,
  type Message,
  type Options,
} from 'amqplib';
import { EVENT_TYPES, type OutgoingEvent } from '../src/events/outbox/event';
import { AmqpSink, type AmqpSinkOptions } from '../src/events/sinks/amqp.sink';
import {
  describeWithBroker,
  proxyFor,
  testEvents,
  timed,
  uniqueName,
  unreachableUrl,
} from './support/event-brokers';
import { sleep } from './support/sleep';
import type { TcpProxy } from './support/tcp-proxy';

describeWithBroker('EVENTS_TEST_AMQP_URL', 'the AMQP sink on a RabbitMQ server', (amqpUrl) => {
  let admin: ChannelModel;
  let channel: Channel;
  const sinks: AmqpSink[] = [];
  const exchanges: string[] = [];
  const proxies: TcpProxy[] = [];

  beforeAll(async () => {
    admin = await connect(amqpUrl);
    channel = await admin.createChannel();
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(sinks.splice(0).map((sink) => sink.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    for (const exchange of exchanges.splice(0)) await channel.deleteExchange(exchange);
  });

  afterAll(async () => {
    // The test queues are exclusive: they go with this connection.
    await admin.close();
  });

  /** A sink on an exchange of its own (deleted after the test), declared here first so that queues can bind. */
  async function sinkOn(
    options: Partial<AmqpSinkOptions> = {},
  ): Promise<{ sink: AmqpSink; exchange: string }> {
    const exchange = uniqueName('shortlink.events.test');
    exchanges.push(exchange);
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const sink = new AmqpSink({ url: amqpUrl, exchange, ...options });
    sinks.push(sink);
    return { sink, exchange };
  }

  /** A queue of this test's own, bound to `exchange` with `pattern`. */
  async function queueOn(
    exchange: string,
    pattern = '#',
    options: Options.AssertQueue = {},
  ): Promise<string> {
    const { queue } = await channel.assertQueue('', { exclusive: true, ...options });
    await channel.bindQueue(queue, exchange, pattern);
    return queue;
  }

  /** The next `count` messages of `queue`, in the order it holds them; fails after `withinMs`. */
  async function take(queue: string, count: number, withinMs = 10_000): Promise<Message[]> {
    const messages: Message[] = [];
    let done = (): void => undefined;
    const all = new Promise<void>((resolve) => (done = resolve));
    const { consumerTag } = await channel.consume(
      queue,
      (message) => {
        if (message === null) return;
        messages.push(message);
        if (messages.length === count) done();
      },
      { noAck: true },
    );
    try {
      await Promise.race([all, sleep(withinMs)]);
    } finally {
      await channel.cancel(consumerTag);
    }
    if (messages.length < count) throw new Error(`${messages.length} of ${count} messages came`);
    return messages;
  }

  /** The messages of `queue` up to the one with message id `lastId`; fails when it does not come within 10 s. */
  async function takeUntil(queue: string, lastId: string): Promise<Message[]> {
    const messages: Message[] = [];
    const deadline = Date.now() + 10_000;
    while (messages.at(-1)?.properties.messageId !== lastId) {
      const message = await channel.get(queue, { noAck: true });
      if (message !== false) messages.push(message);
      else if (Date.now() > deadline) throw new Error(`${lastId} did not come`);
      else await sleep(20);
    }
    return messages;
  }

  /** Whether `exchange` exists as a durable topic exchange: asked on a channel of its own, which a no closes. */
  async function isDurableTopic(exchange: string): Promise<boolean> {
    const probe = await admin.createChannel();
    probe.on('error', () => undefined);
    try {
      // Passive first, as an assertion would make a missing exchange; the assertion then fails on other flags.
      await probe.checkExchange(exchange);
      await probe.assertExchange(exchange, 'topic', { durable: true });
      return true;
    } catch {
      return false;
    } finally {
      await probe.close().catch(() => undefined);
    }
  }

  /**
   * What every confirm channel does from now on, in order: `publish`, `full` when one returned false, `drain` when
   * its buffer emptied again. Undone after the test.
   */
  async function recordBackPressure(): Promise<string[]> {
    const steps: string[] = [];
    const sample = await admin.createConfirmChannel();
    const prototype = Object.getPrototypeOf(sample) as ConfirmChannel;
    await sample.close();
    const publish = prototype.publish;
    jest.spyOn(prototype, 'publish').mockImplementation(function (
      this: ConfirmChannel,
      ...args: Parameters<ConfirmChannel['publish']>
    ) {
      steps.push('publish');
      const accepted = publish.apply(this, args);
      if (!accepted) {
        steps.push('full');
        this.once('drain', () => steps.push('drain'));
      }
      return accepted;
    });
    return steps;
  }

  function ids(messages: Message[]): unknown[] {
    return messages.map((message): unknown => message.properties.messageId);
  }

  function idsOf(events: OutgoingEvent[]): string[] {
    return events.map((event) => event.id);
  }

  async function behindProxy(): Promise<{ proxy: TcpProxy; url: string }> {
    const proxied = await proxyFor(amqpUrl, 5672);
    proxies.push(proxied.proxy);
    return proxied;
  }

  it('publishes each event in order: persistent, its type as routing key, its id as message id', async () => {
    const { sink, exchange } = await sinkOn();
    const queue = await queueOn(exchange);
    const events = testEvents(7);
    const startedAt = Math.floor(Date.now() / 1000);

    await sink.publish(events.slice(0, 4));
    await sink.publish(events.slice(4));

    const messages = await take(queue, 7);
    expect(
      messages.map(({ content, fields, properties }) => ({
        body: content.toString(),
        routingKey: fields.routingKey,
        exchange: fields.exchange,
        deliveryMode: properties.deliveryMode,
        messageId: properties.messageId,
        type: properties.type,
        contentType: properties.contentType,
      })),
    ).toEqual(
      events.map((event) => ({
        body: event.body,
        routingKey: event.type,
        exchange,
        deliveryMode: 2,
        messageId: event.id,
        type: event.type,
        contentType: 'application/json',
      })),
    );
    for (const { properties } of messages) {
      expect(properties.timestamp).toBeGreaterThanOrEqual(startedAt);
      expect(properties.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    }
  });

  it('routes by event type on the topic exchange', async () => {
    const { sink, exchange } = await sinkOn();
    const clicks = await queueOn(exchange, 'link.clicked');
    const everything = await queueOn(exchange, 'link.*');
    // Two of each type, whatever the number of types.
    const events = testEvents(2 * EVENT_TYPES.length);

    await sink.publish(events);

    const clicked = events.filter((event) => event.type === 'link.clicked');
    expect(clicked).toHaveLength(2);
    expect(ids(await take(clicks, clicked.length))).toEqual(idsOf(clicked));
    expect(ids(await take(everything, events.length))).toEqual(idsOf(events));
    expect(await channel.checkQueue(clicks)).toMatchObject({ messageCount: 0 });
  });

  it('publishes a batch of 1,000 events of 4 KB, in order', async () => {
    const { sink, exchange } = await sinkOn();
    const queue = await queueOn(exchange);
    const events = testEvents(1000, { bodyBytes: 4096 });

    await sink.publish(events);

    expect(ids(await take(queue, 1000))).toEqual(idsOf(events));
  });

  it('publishes a batch larger than the channel buffers (1,024 messages), waiting for it to drain', async () => {
    const { sink, exchange } = await sinkOn();
    const queue = await queueOn(exchange);
    const steps = await recordBackPressure();
    const events = testEvents(3000);

    await sink.publish(events);

    expect(steps).toContain('full');
    // Once the channel said it was full, nothing more was published before it drained.
    steps.forEach((step, index) => {
      if (step === 'full') expect(steps[index + 1]).toBe('drain');
    });
    expect(ids(await take(queue, 3000))).toEqual(idsOf(events));
  });

  it('declares its exchange itself, durable, when the broker has none', async () => {
    const exchange = uniqueName('shortlink.events.test');
    exchanges.push(exchange);
    const sink = new AmqpSink({ url: amqpUrl, exchange });
    sinks.push(sink);

    expect(await isDurableTopic(exchange)).toBe(false);

    await sink.publish(testEvents(1));

    expect(await isDurableTopic(exchange)).toBe(true);
  });

  it('rejects a batch the broker refuses (a full queue that rejects publishes nacks it)', async () => {
    const { sink, exchange } = await sinkOn();
    const queue = await queueOn(exchange, '#', { maxLength: 1, overflow: 'reject-publish' });

    await expect(sink.publish(testEvents(3))).rejects.toThrow(/RabbitMQ did not take the events: .*nack/);

    // The publish is refused at the first nack; the broker may still be routing the batch's last message, which a
    // purge before it would let into the emptied queue, to push out the next one.
    await sleep(250);
    await channel.purgeQueue(queue);
    const next = testEvents(1);
    await sink.publish(next);
    expect(ids(await take(queue, 1))).toEqual(idsOf(next));
  });

  it('rejects when the exchange cannot be declared as it must be (a channel error)', async () => {
    const exchange = uniqueName('shortlink.events.test');
    exchanges.push(exchange);
    await channel.assertExchange(exchange, 'fanout', { durable: true });
    const sink = new AmqpSink({ url: amqpUrl, exchange });
    sinks.push(sink);

    await expect(sink.publish(testEvents(1))).rejects.toThrow(/PRECONDITION_FAILED/);
  });

  it('rejects when its exchange is gone, and declares it again on the next publish', async () => {
    const { sink, exchange } = await sinkOn();
    await sink.publish(testEvents(1));
    await channel.deleteExchange(exchange);

    await expect(sink.publish(testEvents(1))).rejects.toThrow(/NOT_FOUND/);

    await sink.publish(testEvents(1));
    expect(await isDurableTopic(exchange)).toBe(true);
  });

  it('rejects at once when nothing listens', async () => {
    const sink = new AmqpSink({ url: await unreachableUrl(amqpUrl) });
    sinks.push(sink);

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { ms, error } = await timed(sink.publish(testEvents(1)));
      expect(error?.message).toMatch(/RabbitMQ did not take the events: .*ECONNREFUSED/);
      expect(ms).toBeLessThan(2000);
    }
  });

  it('rejects at once while the connection is cut, and publishes again once the broker is back', async () => {
    const { proxy, url } = await behindProxy();
    const { sink, exchange } = await sinkOn({ url });
    const queue = await queueOn(exchange);
    const before = testEvents(2);
    await sink.publish(before);

    proxy.cut();
    // The first finds the connection dying, the second none, and a new one refused.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { ms, error } = await timed(sink.publish(testEvents(1)));
      expect(error?.message).toMatch(/RabbitMQ did not take the events/);
      expect(ms).toBeLessThan(2000);
    }

    proxy.restore();
    const after = testEvents(2);
    await sink.publish(after);
    expect(ids(await take(queue, 4))).toEqual(idsOf([...before, ...after]));
  });

  it('connects anew on the first publish after the connection was lost while idle', async () => {
    const { proxy, url } = await behindProxy();
    const { sink, exchange } = await sinkOn({ url });
    const queue = await queueOn(exchange);
    await sink.publish(testEvents(1));

    proxy.cut();
    await sleep(100);
    proxy.restore();
    const after = testEvents(1);
    await sink.publish(after);

    expect(ids(await takeUntil(queue, after[0].id))).toHaveLength(2);
    expect(proxy.accepted).toBe(2);
  });

  it('rejects a publish on a connection cut under it', async () => {
    const { proxy, url } = await behindProxy();
    const { sink, exchange } = await sinkOn({ url });
    const queue = await queueOn(exchange);
    const before = testEvents(1);
    await sink.publish(before);

    const publishing = timed(sink.publish(testEvents(1000, { bodyBytes: 4096 })));
    proxy.cut();
    const { ms, error } = await publishing;
    expect(error?.message).toMatch(/RabbitMQ did not take the events/);
    expect(ms).toBeLessThan(2000);

    proxy.restore();
    const after = testEvents(1);
    await sink.publish(after);
    // Whatever part of the cut batch reached the broker comes in between.
    expect(ids(await takeUntil(queue, after[0].id))[0]).toBe(before[0].id);
  });

  it('rejects within its timeout when the broker stops answering, and publishes again once it answers', async () => {
    const { proxy, url } = await behindProxy();
    const { sink, exchange } = await sinkOn({ url, timeoutMs: 1000 });
    const queue = await queueOn(exchange);
    const before = testEvents(1);
    await sink.publish(before);

    proxy.freeze();
    // The first waits on its confirm, the second on a new connection: neither longer than the timeout.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { ms, error } = await timed(sink.publish(testEvents(1)));
      expect(error?.message).toMatch(
        /^RabbitMQ did not (answer within 1000 ms|take the events: connect ETIMEDOUT)/,
      );
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(3000);
    }

    proxy.restore();
    const after = testEvents(1);
    await sink.publish(after);
    // The frozen message may come too, once the proxy lets it through: it is the one in between, if any.
    const arrived = ids(await takeUntil(queue, after[0].id));
    expect(arrived[0]).toBe(before[0].id);
    expect(arrived.length).toBeLessThanOrEqual(3);
  });
});
