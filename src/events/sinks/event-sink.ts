import type { OutgoingEvent } from '../outbox/event';

/**
 * A broker that takes every event for pipelines (contract §10): a Redis stream, a RabbitMQ exchange. The outbox
 * hands it batches in event order and marks them sent only once `publish` resolves, so a broker that is down
 * delays events and never loses them; one that took a batch twice (a retry after a lost answer) has duplicates,
 * which receivers tell apart by the event id.
 */
export interface EventSink {
  /** `redis` or `amqp`: the name the outbox records its deliveries under, and the metrics' label. */
  readonly name: 'redis' | 'amqp';
  /**
   * Publishes the events, in order; resolves once the broker holds all of them (persisted as far as it
   * promises: a confirm from RabbitMQ, the reply to XADD from Redis), rejects if it may not hold any one of them.
   * Never waits on a broker that does not answer longer than its own timeout.
   */
  publish(events: readonly OutgoingEvent[]): Promise<void>;
  /** Closes the connection; no publish is in flight when the outbox calls it. */
  close(): Promise<void>;
}
