import { eventFrame, KEEP_ALIVE, retryFrame } from './sse';
import { comparePositions, justBefore, laterOf, pastTransactionsBefore } from './stream-position';

describe('server-sent event frames', () => {
  it('write an event as its id, its type and its data, ended by a blank line', () => {
    expect(eventFrame('evt_1', 'link.created', '{"id":"evt_1"}')).toBe(
      'id: evt_1\nevent: link.created\ndata: {"id":"evt_1"}\n\n',
    );
  });

  it('split data with line breaks over several data lines, so that no line break ends the frame early', () => {
    expect(eventFrame('evt_2', 'link.updated', 'a\nb\r\nc\rd')).toBe(
      'id: evt_2\nevent: link.updated\ndata: a\ndata: b\ndata: c\ndata: d\n\n',
    );
  });

  it('keep the connection alive with a comment, and tell the client when to reconnect', () => {
    expect(KEEP_ALIVE).toMatch(/^:.*\n\n$/);
    expect(retryFrame(2000)).toBe('retry: 2000\n\n');
  });
});

describe('stream positions', () => {
  it('order by transaction, then by id, beyond what a number holds', () => {
    const a = { txid: '9007199254740993', id: '5' };
    const b = { txid: '9007199254740993', id: '6' };
    const c = { txid: '9007199254740994', id: '1' };
    expect(comparePositions(a, b)).toBe(-1);
    expect(comparePositions(b, a)).toBe(1);
    expect(comparePositions(c, b)).toBe(1);
    expect(comparePositions(a, { ...a })).toBe(0);
    expect(laterOf(a, c)).toBe(c);
    expect(comparePositions(justBefore(b), a)).toBe(0);
  });

  it('pass every event of the transactions before a horizon, and none of the horizon', () => {
    const past = pastTransactionsBefore('100');
    expect(comparePositions(past, { txid: '99', id: '9223372036854775806' })).toBe(1);
    expect(comparePositions(past, { txid: '100', id: '1' })).toBe(-1);
  });
});
