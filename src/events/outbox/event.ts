/** The events a change or a click makes (contract §10), and `ping`, which only a webhook test sends. */
export const EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'link.limit_reached',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

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
