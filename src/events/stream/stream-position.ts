/**
 * Where a stream stands in the outbox: the last event it has passed, as the transaction that wrote it and its id
 * (both bigint texts). Events are read in this order, and only those of transactions older than any still running
 * (see event-stream.repository.ts), so that no event can later appear behind a position already passed.
 */
export interface StreamPosition {
  txid: string;
  id: string;
}

/** The greatest event id: a position that passes every event of its transaction. */
const LAST_ID = '9223372036854775807';

/** Negative, zero or positive as `a` comes before, at or after `b`. */
export function comparePositions(a: StreamPosition, b: StreamPosition): number {
  const txid = BigInt(a.txid) - BigInt(b.txid);
  if (txid !== 0n) return txid < 0n ? -1 : 1;
  const id = BigInt(a.id) - BigInt(b.id);
  return id === 0n ? 0 : id < 0n ? -1 : 1;
}

/** The later of two positions. */
export function laterOf(a: StreamPosition, b: StreamPosition): StreamPosition {
  return comparePositions(a, b) >= 0 ? a : b;
}

/** The position just before an event: everything before it passed, the event itself not. */
export function justBefore(event: StreamPosition): StreamPosition {
  return { txid: event.txid, id: (BigInt(event.id) - 1n).toString() };
}

/**
 * The position past every event of the transactions older than `horizon` (the oldest transaction still running, or
 * the next to start): all of those are committed or never will be.
 */
export function pastTransactionsBefore(horizon: string): StreamPosition {
  return { txid: (BigInt(horizon) - 1n).toString(), id: LAST_ID };
}
