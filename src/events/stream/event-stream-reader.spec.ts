import type { EventPayloads } from '../event-payloads';
import type { EventsRepository } from '../events.repository';
import type { OutgoingEvent } from '../outbox/event';
import type { EventStreamRepository, StreamRow } from './event-stream.repository';
import { EventStreamReader, type StreamTarget } from './event-stream-reader';
import { comparePositions, pastTransactionsBefore, type StreamPosition } from './stream-position';

/**
 * The outbox as the reader sees it: the events committed so far (each with its transaction), and the oldest
 * transaction still running, below which every event is committed or never will be.
 */
class Outbox {
  readonly committed: StreamRow[] = [];
  horizon = 100;
  private nextId = 1;

  /** An event that `txid` writes now (its id taken now), committed at once unless held. */
  write(txid: number, accountId = 1, fields: Partial<StreamRow> = {}): StreamRow {
    const row: StreamRow = {
      id: String(this.nextId++),
      txid: String(txid),
      account_id: accountId,
      type: 'link.created',
      link_id: 1,
      ready: true,
      stale: false,
      ...fields,
    };
    this.committed.push(row);
    return row;
  }

  private visible(from: StreamPosition, accountIds: readonly number[]): StreamRow[] {
    return this.committed
      .filter((row) => Number(row.txid) < this.horizon && accountIds.includes(row.account_id))
      .filter((row) => comparePositions(row, from) > 0)
      .sort(comparePositions);
  }

  readonly repository = {
    horizon: () => Promise.resolve(String(this.horizon)),
    after: (from: StreamPosition, accountIds: readonly number[], limit: number) =>
      Promise.resolve({
        horizon: String(this.horizon),
        rows: this.visible(from, accountIds)
          .slice(0, limit)
          .map((row) => ({ ...row })),
      }),
    between: (accountId: number, from: StreamPosition, to: StreamPosition, limit: number) =>
      Promise.resolve(
        this.visible(from, [accountId])
          .filter((row) => comparePositions(row, to) <= 0)
          .slice(0, limit)
          .map((row) => ({ ...row })),
      ),
    linkSpaces: () => Promise.resolve(new Map()),
    deletedSpaces: () => Promise.resolve(new Map()),
  } as unknown as EventStreamRepository;

  readonly events = {
    complete: (events: { id: string }[]) => {
      for (const event of events) this.committed.find((row) => row.id === event.id)!.ready = true;
      return Promise.resolve();
    },
  } as unknown as EventsRepository;

  readonly payloads = {
    dataOf: (rows: { id: string }[]) => Promise.resolve(rows.map((row) => ({ id: row.id, data: {} }))),
    outgoing: (ids: readonly string[]) =>
      Promise.resolve(
        new Map<string, OutgoingEvent>(
          ids.map((id) => {
            const row = this.committed.find((event) => event.id === id)!;
            const event = { id: `evt_${id}`, type: row.type as OutgoingEvent['type'], body: `{"n":${id}}` };
            return [id, event];
          }),
        ),
      ),
  } as unknown as EventPayloads;
}

/** A stream that records the ids of the outbox events it was sent. */
function target(position: StreamPosition, accountId = 1): StreamTarget & { got: string[] } {
  const got: string[] = [];
  return {
    accountId,
    spaceIds: null,
    position,
    skip: null,
    got,
    send: (frame: string) => got.push(/^id: evt_(\d+)$/m.exec(frame)![1]),
  };
}

describe('the event streams reader', () => {
  let outbox: Outbox;
  let reader: EventStreamReader;
  const pass = () => (reader as unknown as { pass(): Promise<boolean> }).pass();

  beforeEach(() => {
    // The reader's own timer stays still: each test makes its passes.
    jest.useFakeTimers();
    outbox = new Outbox();
    reader = new EventStreamReader(outbox.repository, outbox.events, outbox.payloads, {
      pollMs: 250,
      heartbeatMs: 15_000,
    });
  });
  afterEach(() => jest.useRealTimers());

  it('sends an event whose transaction commits after a later id was sent, and never sends one twice', async () => {
    const stream = target(pastTransactionsBefore('100'));
    reader.add(stream);
    outbox.horizon = 101;
    // Transaction 101 takes id 1 and is still running when transaction 102 writes id 2 and commits.
    const late = outbox.write(101);
    outbox.committed.splice(outbox.committed.indexOf(late), 1);
    outbox.write(102);
    await pass();
    expect(stream.got).toEqual([]);
    // 101 commits: the horizon passes both, which come in their transactions' order.
    outbox.committed.push(late);
    outbox.horizon = 103;
    await pass();
    await pass();
    expect(stream.got).toEqual(['1', '2']);
  });

  it('holds back a change its request has not completed, and the events after it; completes a limit reached', async () => {
    const stream = target(pastTransactionsBefore('100'));
    reader.add(stream);
    outbox.write(100, 1, { type: 'link.limit_reached', ready: false });
    const pending = outbox.write(101, 1, { ready: false });
    outbox.write(102);
    outbox.horizon = 103;
    await pass();
    expect(stream.got).toEqual(['1']);
    expect(outbox.committed[0].ready).toBe(true);
    pending.ready = true;
    await pass();
    expect(stream.got).toEqual(['1', '2', '3']);
  });

  it('lets a stream that starts behind catch up with its account alone, then go on with the others', async () => {
    const live = target(pastTransactionsBefore('100'));
    reader.add(live);
    outbox.horizon = 110;
    for (let txid = 100; txid < 105; txid += 1) outbox.write(txid, txid % 2 === 0 ? 1 : 2);
    await pass();
    expect(live.got).toEqual(['1', '3', '5']);

    const resumed = target({ txid: '100', id: '1' });
    reader.add(resumed);
    outbox.write(110);
    outbox.horizon = 111;
    await pass();
    await pass();
    expect(resumed.got).toEqual(['3', '5', '6']);
    expect(live.got).toEqual(['1', '3', '5', '6']);
  });

  it('does not send a new stream the events committed before it started', async () => {
    outbox.horizon = 100;
    const before = outbox.write(105);
    const stream = target(pastTransactionsBefore('100'));
    stream.skip = { ids: new Set([before.id]), until: before };
    reader.add(stream);
    outbox.horizon = 107;
    outbox.write(106);
    await pass();
    expect(stream.got).toEqual(['2']);
    expect(stream.skip).toBeNull();
  });
});
