import { describe, expect, it } from 'vitest';
import { SseParser } from '../src/session/sse';

/** The service's answer as it writes it: the retry hint, an event, a keep-alive comment, another event. */
const STREAM =
  'retry: 3000\n\n' +
  'id: evt_1\nevent: link.created\ndata: {"id":"evt_1","data":{"id":5}}\n\n' +
  ': keep-alive\n\n' +
  'id: evt_2\nevent: link.clicked\ndata: {"id":"evt_2",\ndata: "data":{}}\n\n';

const EVENTS = [
  { id: 'evt_1', type: 'link.created', data: '{"id":"evt_1","data":{"id":5}}' },
  { id: 'evt_2', type: 'link.clicked', data: '{"id":"evt_2",\n"data":{}}' },
];

describe('the server-sent events parser', () => {
  it('reads events, their ids and types, joins data lines, skips comments and keeps the retry hint', () => {
    const parser = new SseParser();
    expect(parser.push(STREAM)).toEqual(EVENTS);
    expect(parser.retryMs).toBe(3000);
    expect(parser.lastId).toBe('evt_2');
  });

  it('gives the same events however the text is cut, even between the CR and LF of a line end', () => {
    for (const text of [STREAM, STREAM.replaceAll('\n', '\r\n')]) {
      const parser = new SseParser();
      const events = [...text].flatMap((character) => parser.push(character));
      expect(events).toEqual(EVENTS);
    }
  });

  it('ends lines on a lone CR, once the next character shows that no LF follows it', () => {
    const parser = new SseParser();
    const events = parser.push(STREAM.replaceAll('\n', '\r'));
    expect(events).toEqual(EVENTS.slice(0, 1));
    expect(parser.push(':')).toEqual(EVENTS.slice(1));
  });

  it('holds an event until its blank line, and names none cut off mid-way as the last', () => {
    const parser = new SseParser('evt_0');
    expect(parser.push('id: evt_1\nevent: link.created\ndata: {}\n')).toEqual([]);
    expect(parser.lastId).toBe('evt_0');
    expect(parser.push('\n')).toEqual([{ id: 'evt_1', type: 'link.created', data: '{}' }]);
    expect(parser.lastId).toBe('evt_1');
  });

  it('reads fields as the standard does: one space dropped, no colon, the default type, ids kept', () => {
    const parser = new SseParser();
    const events = parser.push(
      'id: a\ndata:  two spaces\n\n' +
        'data\n\n' +
        'event: x\nunknown: field\ndata:z\n\n' +
        'retry: soon\n\n',
    );
    expect(events).toEqual([
      { id: 'a', type: 'message', data: ' two spaces' },
      { id: 'a', type: 'message', data: '' },
      { id: 'a', type: 'x', data: 'z' },
    ]);
    expect(parser.retryMs).toBeNull();
  });

  it('makes no event of a frame without data, and ignores an id with a NUL', () => {
    const parser = new SseParser();
    expect(parser.push('event: link.created\n\nid: b\0c\ndata: x\n\n')).toEqual([
      { id: '', type: 'message', data: 'x' },
    ]);
  });
});
