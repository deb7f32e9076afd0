import { EventWorker, type EventWorkerOptions } from '../src/events/event-worker';
import { EventsRepository, MAINTENANCE_LOCK, Sink } from '../src/events/events.repository';
import { deliverAll, onClock, TestClock } from './support/clock';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { Receiver } from './support/receiver';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { scrape, SCRAPED } from './support/metrics';
import { createLink } from './support/visitors';
import { onRealPostgres } from './support/test-database';

/**
 * What the outbox keeps: delivered events and the delivery log for the retention period and no longer, pending ones
 * whatever their age, and at most the backlog cap of one webhook's waiting deliveries, the oldest dropped past it.
 */

const DAY = 86_400_000;

describe('outbox retention and the backlog cap', () => {
  let t: TestApp;
  let owner: TestAccount;
  let worker: EventWorker;
  let scratch: ScratchDatabase;
  let receiver: Receiver;
  const clock = new TestClock();
  const { json } = apiClient(() => t);

  const deliver = () => deliverAll(worker);

  async function count(sql: string): Promise<number> {
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(`SELECT (${sql})::int AS n`);
    return n;
  }

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_retention');
    receiver = await Receiver.start();
    const options: EventWorkerOptions = {
      pollMs: null,
      webhookTimeoutMs: 1000,
      retentionMs: 7 * DAY,
      backlogMax: 100,
      streamBacklogMax: 120,
      perWebhook: 2,
    };
    t = await createTestApp(
      { DATABASE_URL: scratch.url, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
      onClock(clock, options),
    );
    worker = t.app.get(EventWorker);
    owner = await createAccount(t, 'Retention');
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await scratch?.drop();
  });

  it('keeps delivered events and their log for the retention period, then removes them; never a pending one', async () => {
    const delivered = await json(owner, 'post', '/api/v1/webhooks', {
      name: 'kept',
      url: receiver.url,
      events: ['link.created'],
    });
    await createLink(t, owner, { url: 'https://example.com/kept' });
    await deliver();
    expect(receiver.received).toHaveLength(1);
    await json(owner, 'patch', `/api/v1/webhooks/${delivered.body.data.id}`, { enabled: 0 });
    // An event still waiting: its receiver fails, then its webhook is disabled, so it is neither sent nor done.
    const other = await json(owner, 'post', '/api/v1/webhooks', {
      name: 'waiting',
      url: 'http://127.0.0.1:9/nothing-listens',
      events: ['link.updated'],
    });
    const link = await createLink(t, owner, { url: 'https://example.com/waiting' });
    await json(owner, 'patch', `/api/v1/links/${link.id}`, { title: 'Changed' });
    await deliver();
    await json(owner, 'patch', `/api/v1/webhooks/${other.body.data.id}`, { enabled: 0 });
    const events = await count('SELECT count(*) FROM events');
    expect(await count('SELECT count(*) FROM webhook_attempts')).toBe(2);

    // Six days on: everything is kept.
    clock.advance(6 * DAY);
    await deliver();
    expect(await count('SELECT count(*) FROM events')).toBe(events);
    // Eight days on: the delivered ones and the log go, the pending one stays.
    clock.advance(2 * DAY);
    await deliver();
    expect(await count('SELECT count(*) FROM webhook_attempts')).toBe(0);
    expect(await count(`SELECT count(*) FROM events WHERE type = 'link.created'`)).toBe(0);
    expect(
      await count(
        `SELECT count(*) FROM events e JOIN event_deliveries d ON d.event_id = e.id WHERE d.next_attempt_at IS NOT NULL`,
      ),
    ).toBe(1);
  });

  it('drops the oldest deliveries of a webhook past its backlog cap, and only those', async () => {
    // Back to today, or the first test's eight days would make retention take what this one drops.
    clock.reset();
    const down = await json(owner, 'post', '/api/v1/webhooks', {
      name: 'down',
      url: 'http://127.0.0.1:9/nothing-listens',
      events: ['link.created'],
    });
    const webhookId = down.body.data.id as number;
    const bulk = await json(owner, 'post', '/api/v1/links/bulk', {
      links: Array.from({ length: 150 }, (_, n) => ({ url: `https://example.com/backlog/${n}` })),
    });
    expect(bulk.status).toBe(201);
    await deliver();
    const pending = () =>
      count(
        `SELECT count(*) FROM event_deliveries WHERE webhook_id = ${webhookId} AND next_attempt_at IS NOT NULL`,
      );
    expect(await pending()).toBe(150);
    // The cap is applied by the minute's maintenance.
    clock.advance(61_000);
    await deliver();
    expect(await pending()).toBe(100);
    const dropped = await t.dataSource.query<{ link_id: number }[]>(
      `SELECT e.link_id FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.webhook_id = $1 AND d.outcome = 3 ORDER BY e.link_id`,
      [webhookId],
    );
    const made = (bulk.body.data as { id: number }[]).map((created) => created.id).sort((a, b) => a - b);
    expect(dropped.map((row) => row.link_id)).toEqual(made.slice(0, 50));
  });

  // The embedded database has one backend: another "instance's" advisory lock would be its own.
  (onRealPostgres() ? it : it.skip)(
    'drops nothing while another instance holds the maintenance lock, and the excess once it is free',
    async () => {
      const down = await json(owner, 'post', '/api/v1/webhooks', {
        name: 'locked',
        url: 'http://127.0.0.1:9/nothing-listens',
        events: ['link.created'],
      });
      const webhookId = down.body.data.id as number;
      const bulk = await json(owner, 'post', '/api/v1/links/bulk', {
        links: Array.from({ length: 130 }, (_, n) => ({ url: `https://example.com/locked/${n}` })),
      });
      expect(bulk.status).toBe(201);
      // Within the minute of the last maintenance: the worker fans the events out and leaves the cap alone.
      await deliver();
      const pending = () =>
        count(
          `SELECT count(*) FROM event_deliveries WHERE webhook_id = ${webhookId} AND next_attempt_at IS NOT NULL`,
        );
      const repository = t.app.get(EventsRepository);
      const caps = { webhook: 100, stream: 120 };
      // Another instance's maintenance, under way on a connection of its own.
      const other = t.dataSource.createQueryRunner();
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1)', [MAINTENANCE_LOCK]);
        expect(await pending()).toBe(130);
        expect(await repository.dropOverCap(caps)).toEqual([]);
        expect(await pending()).toBe(130);
        await other.query('SELECT pg_advisory_unlock($1)', [MAINTENANCE_LOCK]);
      } finally {
        await other.release();
      }

      // The previous test's webhook, still down, took these events too and is over its cap again.
      expect(await repository.dropOverCap(caps)).toContainEqual({
        sink: Sink.Webhook,
        webhook_id: webhookId,
        dropped: 30,
      });
      expect(await pending()).toBe(100);
    },
  );
});

describe('the backlog cap of a stream whose broker is down', () => {
  let t: TestApp;
  let owner: TestAccount;
  let worker: EventWorker;
  let scratch: ScratchDatabase;
  const clock = new TestClock();
  const { json } = apiClient(() => t);

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_stream_cap');
    const options: EventWorkerOptions = {
      pollMs: null,
      webhookTimeoutMs: 1000,
      retentionMs: 7 * DAY,
      backlogMax: 100_000,
      streamBacklogMax: 100,
      perWebhook: 2,
    };
    // Nothing listens on port 9: every publish to the stream fails, and its deliveries wait.
    t = await createTestApp(
      {
        DATABASE_URL: scratch.url,
        RATE_LIMIT_PER_MINUTE: '0',
        EVENTS_REDIS_URL: 'redis://127.0.0.1:9',
        ...SCRAPED,
      },
      onClock(clock, options),
    );
    worker = t.app.get(EventWorker);
    owner = await createAccount(t, 'Stream cap');
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  it('drops the oldest deliveries past EVENTS_STREAM_BACKLOG_MAX, counts them and shows the limit', async () => {
    const bulk = await json(owner, 'post', '/api/v1/links/bulk', {
      links: Array.from({ length: 150 }, (_, n) => ({ url: `https://example.com/stream/${n}` })),
    });
    expect(bulk.status).toBe(201);
    await deliverAll(worker);
    const pending = async () => {
      const [{ n }] = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM event_deliveries WHERE webhook_id IS NULL AND next_attempt_at IS NOT NULL`,
      );
      return n;
    };
    expect(await pending()).toBe(150);
    clock.advance(61_000);
    await deliverAll(worker);
    expect(await pending()).toBe(100);
    const dropped = await t.dataSource.query<{ link_id: number }[]>(
      `SELECT e.link_id FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.webhook_id IS NULL AND d.outcome = 3 ORDER BY e.link_id`,
    );
    const made = (bulk.body.data as { id: number }[]).map((created) => created.id).sort((a, b) => a - b);
    expect(dropped.map((row) => row.link_id)).toEqual(made.slice(0, 50));
    const metrics = await scrape(t);
    expect(metrics).toMatch(/^shortlink_event_deliveries_total\{sink="redis",result="dropped"\} 50$/m);
    expect(metrics).toMatch(/^shortlink_event_backlog\{sink="redis"\} 100$/m);
    expect(metrics).toMatch(/^shortlink_event_backlog_limit\{sink="redis"\} 100$/m);
  });
});
