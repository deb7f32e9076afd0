/** The events a change or a click makes (contract §10), and `ping`, which only a webhook test sends. */
export const EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'link.limit_reached',
  'link.broken',
  'link.recovered',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The events whose data is a link as the API shows it, written by the change or the check that makes them. */
export type LinkEventType = 'link.created' | 'link.updated' | 'link.broken' | 'link.recovered';

/**
 * The events written without their data for the sender to complete from the link as it is when sent, at once: a
 * link at its limit (a visit made it) and a link whose health turned (a background check made it).
 */
export const COMPLETED_BY_SENDER = ['link.limit_reached', 'link.broken', 'link.recovered'] as const;

/** An event as every receiver gets it: the JSON body of a webhook delivery, of a stream entry, of a message. */
export interface EventEnvelope {
  /** `evt_` and 32 hex digits: the same on every retry and every sink. */
  id: string;
  type: EventType | 'ping';
  /** ISO 8601 in UTC, as the API writes dates. */
  created_at: string;
  data: unknown;
}

/** An event ready to send: its id and type, and its body, serialised once for every sink. */
export interface OutgoingEvent {
  id: string;
  type: EventType | 'ping';
  /** The JSON of its {@link EventEnvelope}. */
  body: string;
}

/**
 * How long an event stream's client may resume with `Last-Event-ID` after it lost its connection (contract §14:
 * at least an hour): an account's events are written while one of its streams is open and this long after.
 */
export const STREAM_HOLD_MS = 3_600_000;
/** How often an open stream says it is still open: its row's `seen_at`, shared by every instance. */
export const STREAM_REFRESH_MS = 30_000;
/** A stream not heard of for this long is taken for gone (its instance crashed): three refreshes missed. */
export const STREAM_LEASE_MS = 3 * STREAM_REFRESH_MS;
/** An account's events are written while one of its streams was seen within this: the hold after its lease. */
export const STREAM_INTEREST_MS = STREAM_HOLD_MS + STREAM_LEASE_MS;

/** The SQL condition that the stream row `alias` holds its account's events now. */
export function streamHeldSql(alias: string): string {
  return `${alias}.seen_at > now() - interval '${STREAM_INTEREST_MS} milliseconds'`;
}
