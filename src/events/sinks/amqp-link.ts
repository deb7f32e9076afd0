import type { Socket } from 'node:net';
import { connect, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { withDeadline } from './deadline';

export interface AmqpLinkOptions {
  /** `amqp://` or `amqps://`; it may hold a password, so it is never logged nor put in an error. */
  url: string;
  /** The topic exchange declared on the channel. */
  exchange: string;
  /** Bounds the connect and the close; the publish has its own deadline. */
  timeoutMs: number;
}

/**
 * One connection to the broker and its confirm channel, with the exchange declared: from the connect to its first
 * failure, after which it is {@link lost} and a new one takes its place. Its `error` and `close` events are always
 * heard, so that a broker going away never ends the process.
 */
export class AmqpLink {
  /** The channel, once connected and the exchange declared; rejects if that fails. */
  readonly channel: Promise<ConfirmChannel>;
  /** Broken or dropped: it publishes nothing more. */
  lost = false;
  /** What the broker or the socket said when the link broke: a clearer reason than `channel closed`. */
  failure: Error | undefined;
  private connection: ChannelModel | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: AmqpLinkOptions) {
    this.channel = this.open();
    this.channel.catch(() => {
      this.lost = true;
    });
  }

  /** Marks the link lost and closes its connection; the same promise however often it is called. */
  drop(): Promise<void> {
    this.lost = true;
    this.closing ??= this.close();
    return this.closing;
  }

  private async open(): Promise<ConfirmChannel> {
    const connection = await connect(this.options.url, {
      // Bounds the TCP connect and the AMQP handshake; amqplib lifts it once the connection is open.
      timeout: this.options.timeoutMs,
      clientProperties: { connection_name: 'shortlink-events' },
    });
    this.connection = connection;
    const noteFailure = (error: Error): void => {
      this.failure ??= error;
    };
    connection.on('error', noteFailure);
    connection.on('close', () => void this.drop());
    // Dropped while it was connecting (the publish waiting for it gave up): closed as soon as it exists.
    if (this.lost) {
      await this.close();
      throw new Error('the connection was dropped while it was being made');
    }
    try {
      const channel = await connection.createConfirmChannel();
      channel.on('error', noteFailure);
      // A channel closed by the broker (an exchange deleted meanwhile) leaves the connection open: both go.
      channel.on('close', () => void this.drop());
      await channel.assertExchange(this.options.exchange, 'topic', { durable: true });
      return channel;
    } catch (error) {
      await this.drop();
      throw error;
    }
  }

  /** Closes the connection; one that does not acknowledge in time (its broker hangs) has its socket destroyed. */
  private async close(): Promise<void> {
    const connection = this.connection;
    if (connection === undefined) return;
    try {
      await withDeadline(connection.close(), this.options.timeoutMs, 'RabbitMQ');
    } catch {
      // amqplib keeps its socket as `connection.stream`, with no public way to drop it.
      (connection as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
    }
  }
}
