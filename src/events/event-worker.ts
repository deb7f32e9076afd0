import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { CLOCK, type Clock } from '../common/clock';
import { MetricsService } from '../metrics/metrics.service';
import { DeliverySlots } from './webhooks/delivery-slots';
import { WebhookDeliveries } from './webhooks/webhook-deliveries';
import type { OutgoingEvent } from './outbox/event';
import { EventInterest } from './outbox/event-interest';
import { EventPayloads } from './event-payloads';
import { EventsRepository, Outcome, Sink, type ClaimedDelivery, type WebhookRow } from './events.repository';
import { MAX_ATTEMPTS, nextStreamAttempt, nextWebhookAttempt } from './retry-schedule';
import type { EventSink } from './sinks/event-sink';

/** What the worker is told: how often it looks, how long a delivery may take, what it keeps. */
export interface EventWorkerOptions {
  /** Between two looks at the outbox when there was nothing to do; null: none but those a caller asks for. */
  pollMs: number | null;
  /** The longest a webhook attempt may take (the sender's deadline): a claim's lease is three times as long. */
  webhookTimeoutMs: number;
  /** How long delivered events and the delivery log are kept. */
  retentionMs: number;
  /** Pending deliveries one webhook may have; past it, the oldest are dropped. */
  backlogMax: number;
  /** Pending deliveries one stream (Redis, RabbitMQ) may have; past it, the oldest are dropped. */
  streamBacklogMax: number;
  /** At most this many deliveries of one webhook claimed at once. */
  perWebhook: number;
}

export const EVENT_WORKER_OPTIONS = Symbol('EVENT_WORKER_OPTIONS');
/** The streams events go to (none, Redis, RabbitMQ, or both). */
export const EVENT_SINKS = Symbol('EVENT_SINKS');

/** Events read and fanned out per statement, and stream deliveries per publish. */
const BATCH = 500;
/** The most clicks a batch to a stream carries (some 250 bytes each), whatever its number of events. */
const STREAM_BATCH_CLICKS = 5000;
/** A change's event not completed by its own request this long after it was written is completed here. */
const COMPLETION_GRACE_MS = 10_000;
/** Retention and the backlog cap run this often, each in small steps. */
const MAINTENANCE_MS = 60_000;
/** How long a woken worker waits for more to wake it before its pass. */
const WAKE_MS = 10;
/**
 * A pass that does not drain a backlog starts at least this long after the one before. Each pass costs the same
 * dozen statements however little it finds: under a stream of clicks, passes one delivery apart sent one event
 * each, and their statements cost the database more than the events' clicks. Gathered, a pass takes what a tenth
 * of a second brought, for at most that much more delay.
 */
export const GATHER_MS = 100;
/** Rows removed per retention step. */
const RETENTION_STEP = 5000;

const SINK_NAMES: Record<EventSink['name'], Sink> = { redis: Sink.Redis, amqp: Sink.Amqp };
/** Each sink's label in the metrics and the log. */
const SINK_LABELS: Record<Sink, string> = {
  [Sink.Webhook]: 'webhook',
  [Sink.Redis]: 'redis',
  [Sink.Amqp]: 'amqp',
};

/**
 * Sends the outbox's events: completes those written without their data, fans each out to its deliveries, sends
 * the streams' in batches and the webhooks' one by one, within the instance's slots, and retries what failed. Any
 * number of instances run it together: every claim skips what another holds and leases what it takes, so an event
 * goes to each target once in normal operation, and again (at least once) only after a crash or a lost answer.
 * A service with no webhook and no stream never polls.
 */
@Injectable()
export class EventWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventWorker.name);
  private readonly streamsOf: Map<Sink, EventSink>;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires (Date.now() time). */
  private dueAt = 0;
  private running: Promise<void> | null = null;
  private closing = false;
  /** A slot was freed during the pass under way: the next starts soon after it (`WAKE_MS`). */
  private rerun = false;
  /** When the last pass started (Date.now() time). */
  private passAt = 0;
  private lastMaintenance = 0;
  private readonly sent: Counter<'sink' | 'result'>;
  private readonly backlog: Gauge<'sink'>;
  private readonly backlogLimit: Gauge<'sink'>;

  constructor(
    private readonly repository: EventsRepository,
    private readonly payloads: EventPayloads,
    private readonly interest: EventInterest,
    private readonly deliveries: WebhookDeliveries,
    private readonly slots: DeliverySlots,
    @Inject(EVENT_SINKS) sinks: readonly EventSink[],
    @Inject(EVENT_WORKER_OPTIONS) private readonly options: EventWorkerOptions,
    @Inject(CLOCK) private readonly clock: Clock,
    metrics: MetricsService,
  ) {
    this.streamsOf = new Map(sinks.map((sink) => [SINK_NAMES[sink.name], sink]));
    this.sent = new Counter({
      name: 'shortlink_event_deliveries_total',
      help: 'Attempts to deliver events, by sink (webhook, redis, amqp) and result (delivered, failed, dropped).',
      labelNames: ['sink', 'result'] as const,
      registers: [metrics.registry],
    });
    this.backlog = new Gauge({
      name: 'shortlink_event_backlog',
      help: 'Deliveries waiting in the outbox, by sink, as of the last maintenance.',
      labelNames: ['sink'] as const,
      registers: [metrics.registry],
    });
    for (const sink of ['webhook', 'redis', 'amqp']) this.backlog.labels(sink).set(0);
    this.backlogLimit = new Gauge({
      name: 'shortlink_event_backlog_limit',
      help: 'Deliveries a stream may have waiting in the outbox (EVENTS_STREAM_BACKLOG_MAX); past it, the oldest are dropped.',
      labelNames: ['sink'] as const,
      registers: [metrics.registry],
    });
    for (const sink of ['redis', 'amqp']) this.backlogLimit.labels(sink).set(options.streamBacklogMax);
  }

  onApplicationBootstrap(): void {
    if (this.options.pollMs !== null) this.schedule(0);
  }

  /** Stops looking, lets the deliveries in flight end (each within its deadline), then closes the streams. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
    await this.drain();
    await Promise.all([...this.streamsOf.values()].map((sink) => sink.close().catch(() => undefined)));
  }

  /** Waits for the pass under way and the webhook deliveries this instance has started. */
  async drain(): Promise<void> {
    await this.running;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * A pass soon after the one under way ends (soon, if none is), unless the worker is driven by hand. Soon, not at
   * once: deliveries that end together (a fast receiver answers a claim's in a burst) wake one pass, not one each.
   */
  private wake(): void {
    if (this.closing || this.options.pollMs === null) return;
    if (this.running !== null) {
      this.rerun = true;
      return;
    }
    const soon = this.soonest();
    if (this.timer !== null && this.dueAt <= Date.now() + soon) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.schedule(soon);
  }

  /**
   * The delay of a woken pass: `WAKE_MS`, or what is left of `GATHER_MS` since the last pass started, on the
   * monotonic clock and rounded up, so that `Date.now()`'s whole milliseconds cannot start a pass early.
   */
  private soonest(): number {
    return Math.max(WAKE_MS, Math.ceil(this.passAt + GATHER_MS - performance.now()));
  }

  private schedule(delayMs: number): void {
    if (this.closing || this.options.pollMs === null) return;
    this.dueAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.passAt = performance.now();
      this.running = this.pass()
        .catch((error: unknown) => {
          this.logger.warn(`Event delivery paused: ${(error as Error).message}`);
          return null;
        })
        .then((done) => {
          this.running = null;
          const woken = this.rerun;
          this.rerun = false;
          // A full batch means a backlog: the next pass at once. Deliveries started wake a pass as they end.
          this.schedule(done?.full === true ? 0 : woken ? this.soonest() : (this.options.pollMs ?? 0));
        });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * One pass over the outbox; true when there may be more to do at once: a full batch, or webhook deliveries
   * started (whose failures a next pass retries, for a caller that drives the worker by hand).
   */
  async tick(): Promise<boolean> {
    const { full, started } = await this.pass();
    return full || started > 0;
  }

  /** One pass: whether a batch was full (more is due at once), and how many webhook deliveries it started. */
  private async pass(): Promise<{ full: boolean; started: number }> {
    const now = this.clock.now();
    // A clock set back (NTP, a test) must not hold maintenance off until it catches up.
    if (now - this.lastMaintenance >= MAINTENANCE_MS || now < this.lastMaintenance) {
      this.lastMaintenance = now;
      await this.maintain(now);
    }
    if (!(await this.interest.anyTakers())) return { full: false, started: 0 };
    await this.completeIncomplete(now);
    const fanned = await this.repository.fanOut(BATCH, [...this.streamsOf.keys()], new Date(now));
    const streamed = await Promise.all(
      [...this.streamsOf].map(([sink, target]) => this.stream(sink, target)),
    );
    const started = await this.startWebhooks();
    return { full: fanned === BATCH || streamed.some((full) => full), started };
  }

  /** Events written without their data get it now, before they are fanned out. */
  private async completeIncomplete(now: number): Promise<void> {
    const rows = await this.repository.incomplete(BATCH, new Date(now - COMPLETION_GRACE_MS));
    if (rows.length > 0) await this.repository.complete(await this.payloads.dataOf(rows));
  }

  /** One batch to a stream; true when the batch was full (its limit, or its clicks), so more may be due. */
  private async stream(sink: Sink, target: EventSink): Promise<boolean> {
    const now = this.clock.now();
    const { claimed, full } = await this.repository.claimStream(
      sink,
      BATCH,
      STREAM_BATCH_CLICKS,
      new Date(now),
      this.leaseUntil(now),
    );
    if (claimed.length === 0) return false;
    const events = await this.payloads.outgoing(claimed.map((delivery) => delivery.event_id));
    const sendable = await this.withEvents(claimed, events);
    if (sendable.length === 0) return full;
    const ids = sendable.map((delivery) => delivery.id);
    try {
      await target.publish(sendable.map((delivery) => events.get(delivery.event_id)!));
      await this.repository.finish(ids, Outcome.Delivered);
      this.sent.labels(target.name, 'delivered').inc(sendable.length);
    } catch (error) {
      const attempts = Math.max(...sendable.map((delivery) => delivery.attempts));
      await this.repository.retryAt(ids, nextStreamAttempt(attempts, this.clock.now()));
      this.sent.labels(target.name, 'failed').inc(sendable.length);
      this.logger.warn(`Events kept for ${target.name}, which refused them: ${(error as Error).message}`);
      return false;
    }
    return full;
  }

  /** Claims as many due webhook deliveries as the slots allow and starts them; how many it started. */
  private async startWebhooks(): Promise<number> {
    const free = this.slots.available;
    if (free <= 0) return 0;
    const now = this.clock.now();
    const room = this.slots.freeFor(this.slots.busy());
    const claimed = await this.repository.claimWebhooks(
      free,
      this.options.perWebhook,
      room,
      new Date(now),
      this.leaseUntil(now),
    );
    if (claimed.length === 0) return 0;
    const events = await this.payloads.outgoing(claimed.map((delivery) => delivery.event_id));
    const refused: string[] = [];
    for (const delivery of await this.withEvents(claimed, events)) {
      const slot = this.slots.tryAcquire(delivery.webhook_id!);
      if (slot === null) {
        refused.push(delivery.id);
        continue;
      }
      const run = this.deliver(delivery, events.get(delivery.event_id)!)
        .catch((error: unknown) =>
          this.logger.warn(`Webhook delivery left for later: ${(error as Error).message}`),
        )
        .finally(() => {
          slot.release();
          this.inFlight.delete(run);
          // A freed slot is work for the next pass at once: a fast receiver is not held to one pass per poll.
          this.wake();
        });
      this.inFlight.add(run);
    }
    // Claimed beyond a slot (a ping took it meanwhile): back to the outbox, due now, the attempt not counted.
    await this.repository.unclaim(refused, new Date(now));
    return claimed.length - refused.length;
  }

  private async deliver(delivery: ClaimedDelivery & WebhookRow, event: OutgoingEvent): Promise<void> {
    const target = { id: delivery.webhook_id!, url: delivery.url, secret: delivery.secret };
    const { delivered } = await this.deliveries.attempt(target, event, delivery.attempts);
    this.sent.labels('webhook', delivered ? 'delivered' : 'failed').inc();
    if (delivered) return this.repository.finish([delivery.id], Outcome.Delivered);
    const next =
      delivery.attempts >= MAX_ATTEMPTS ? null : nextWebhookAttempt(delivery.attempts, this.clock.now());
    if (next === null) return this.repository.finish([delivery.id], Outcome.Failed);
    return this.repository.retryAt([delivery.id], next);
  }

  /**
   * The claimed deliveries whose event is still there; those of an event removed meanwhile (its account deleted)
   * are done, with nothing to send.
   */
  private async withEvents<T extends ClaimedDelivery>(
    claimed: readonly T[],
    events: ReadonlyMap<string, unknown>,
  ): Promise<T[]> {
    const gone = claimed.filter((delivery) => !events.has(delivery.event_id));
    await this.repository.finish(
      gone.map((delivery) => delivery.id),
      Outcome.Dropped,
    );
    return claimed.filter((delivery) => events.has(delivery.event_id));
  }

  /** A claim is held three times the longest attempt: past it, another instance may take it again. */
  private leaseUntil(now: number): Date {
    return new Date(now + 3 * this.options.webhookTimeoutMs + 5000);
  }

  /** The backlog cap (by one instance at a time), retention in small steps, and the backlog's gauge. */
  private async maintain(now: number): Promise<void> {
    const caps = { webhook: this.options.backlogMax, stream: this.options.streamBacklogMax };
    for (const { sink, webhook_id, dropped } of await this.repository.dropOverCap(caps)) {
      const name = SINK_LABELS[sink];
      this.sent.labels(name, 'dropped').inc(dropped);
      this.logger.warn(
        webhook_id === null
          ? `Stream ${name}: ${dropped} deliveries dropped, over the backlog of ${caps.stream}`
          : `Webhook ${webhook_id}: ${dropped} deliveries dropped, over the backlog of ${caps.webhook}`,
      );
    }
    const before = new Date(now - this.options.retentionMs);
    for (;;) {
      const removed = await this.repository.removeOld(before, RETENTION_STEP);
      if (removed.events < RETENTION_STEP && removed.attempts < RETENTION_STEP) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pending = new Map((await this.repository.backlog()).map((row) => [row.sink, row.pending]));
    for (const sink of [Sink.Webhook, Sink.Redis, Sink.Amqp]) {
      this.backlog.labels(SINK_LABELS[sink]).set(pending.get(sink) ?? 0);
    }
  }
}
