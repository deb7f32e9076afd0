/**
 * A reader of server-sent events (the HTML standard's `text/event-stream`), for a stream read with `fetch`: a
 * browser's EventSource would parse it, but it cannot send the session's header.
 */

/** One event: the id a reconnection names in `Last-Event-ID`, its type, and its `data:` lines joined. */
export interface SseEvent {
  id: string;
  type: string;
  data: string;
}

/** A line ending: CRLF, LF, or a CR that is not the last character read (an LF may yet follow it). */
const LINE_END = /\r\n|\n|\r(?!$)/g;

/**
 * Turns the text of a stream, chunk by chunk however it was cut, into its events; comments (`: keep-alive`) and
 * unknown fields are skipped, and `retry:` is kept in {@link retryMs}.
 */
export class SseParser {
  /**
   * The id of the last event read to its end, what a reconnection names: an event cut off mid-way was not received.
   * Starts at the id the previous connection ended with.
   */
  lastId: string;
  /** The last `retry:` the stream gave: how long to wait before a reconnection. */
  retryMs: number | null = null;
  private buffer = '';
  /** The `id:` of the event being read; it stays for the next ones until another `id:` comes. */
  private id: string;
  private type = '';
  private data: string[] = [];

  constructor(lastId = '') {
    this.lastId = lastId;
    this.id = lastId;
  }

  /** The events that `chunk` completes, in order. */
  push(chunk: string): SseEvent[] {
    const events: SseEvent[] = [];
    this.buffer += chunk;
    let start = 0;
    for (const end of this.buffer.matchAll(LINE_END)) {
      const event = this.line(this.buffer.slice(start, end.index));
      if (event !== null) events.push(event);
      start = end.index + end[0].length;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.type = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
    }
    return null;
  }

  /** A blank line ends an event (its id counts even without `data:`, which makes it no event to hand on). */
  private dispatch(): SseEvent | null {
    this.lastId = this.id;
    const event =
      this.data.length === 0
        ? null
        : { id: this.lastId, type: this.type === '' ? 'message' : this.type, data: this.data.join('\n') };
    this.type = '';
    this.data = [];
    return event;
  }
}
