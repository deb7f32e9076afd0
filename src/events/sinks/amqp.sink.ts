import type { ConfirmChannel } from 'amqplib';
import type { OutgoingEvent } from '../outbox/event';
import { AmqpLink } from './amqp-link';
import { BrokerTimeoutError, withDeadline } from './deadline';
import type { EventSink } from './event-sink';

/** The exchange the contract names (§10). */
export const EVENTS_EXCHANGE = 'shortlink.events';

export interface AmqpSinkOptions {
  /** `amqp://` or `amqps://`; it may hold a password, so it is never logged nor put in an error. */
  url: string;
  exchange?: string;
  /** The longest a publish waits for the broker, connecting and every confirm included. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Publishes each event, persistent, to a durable topic exchange with its type as the routing key, and holds a batch
 * published only once the broker confirmed every message of it. The connection is made on the first publish, and
 * made again on the publish after it broke or failed a batch; nothing reconnects in the background.
 */
export class AmqpSink implements EventSink {
  readonly name = 'amqp';
  private readonly url: string;
  private readonly exchange: string;
  private readonly timeoutMs: number;
  private link: AmqpLink | undefined;
  /** The end of the batch under way: `waitForConfirms` waits on the whole channel, so batches go one at a time. */
  private turn: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: AmqpSinkOptions) {
    this.url = options.url;
    this.exchange = options.exchange ?? EVENTS_EXCHANGE;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async publish(events: readonly OutgoingEvent[]): Promise<void> {
    if (this.closed) throw new Error('The AMQP event sink is closed');
    if (events.length === 0) return;
    const previous = this.turn;
    let finished = (): void => undefined;
    this.turn = new Promise((resolve) => (finished = resolve));
    await previous;
    try {
      await this.deliver(events);
    } finally {
      finished();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const link = this.link;
    this.link = undefined;
    await link?.drop();
  }

  private async deliver(events: readonly OutgoingEvent[]): Promise<void> {
    if (this.link === undefined || this.link.lost) {
      this.link = new AmqpLink({ url: this.url, exchange: this.exchange, timeoutMs: this.timeoutMs });
    }
    const link = this.link;
    try {
      await withDeadline(this.send(link, events), this.timeoutMs, 'RabbitMQ');
    } catch (error) {
      // Unconfirmed messages or a half-dead socket stay with the old link: the next batch starts on a new one.
      void link.drop();
      if (link.failure === undefined && error instanceof BrokerTimeoutError) throw error;
      const reason = link.failure ?? (error as Error);
      throw new Error(`RabbitMQ did not take the events: ${reason.message}`, { cause: error });
    }
  }

  private async send(link: AmqpLink, events: readonly OutgoingEvent[]): Promise<void> {
    const channel = await link.channel;
    const timestamp = Math.floor(Date.now() / 1000);
    for (const event of events) {
      const accepted = channel.publish(this.exchange, event.type, Buffer.from(event.body), {
        persistent: true,
        messageId: event.id,
        type: event.type,
        contentType: 'application/json',
        // When it was published, in seconds as AMQP has it; when it happened is the body's `created_at`.
        timestamp,
      });
      if (!accepted) await drained(link, channel);
    }
    await channel.waitForConfirms();
  }
}

/** Resolves when the channel takes writes again after `publish` returned false; rejects if it closes first. */
function drained(link: AmqpLink, channel: ConfirmChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = (): void => {
      channel.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      channel.off('drain', onDrain);
      reject(link.failure ?? new Error('the channel closed'));
    };
    channel.once('drain', onDrain);
    channel.once('close', onClose);
  });
}
