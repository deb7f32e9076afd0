import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_HEADER } from '../src/api/client';
import {
  backoffMs,
  followEventStream,
  retryAfterMs,
  SILENCE_MS,
  type FollowOptions,
  type StreamState,
} from '../src/session/eventStream';
import type { SseEvent } from '../src/session/sse';
import { json } from './api';

/** A stream answer whose text the test writes as it goes. */
function openStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
  };
}

/** A closed stream that held `text`. */
function streamOf(text: string): Response {
  const stream = openStream();
  stream.write(text);
  stream.end();
  return stream.response;
}

function refusal(status: number, headers: Record<string, string> = {}): Response {
  const response = json(status, { message: 'No.', status });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * Follows a stream against a stand-in fetch that gives `answers` in turn (a function is called with the request's
 * headers); once they are used up, it stops following. Every wait is recorded and takes no time.
 */
function follow(
  answers: (Response | Error | ((headers: Headers) => Response))[],
  options: Partial<FollowOptions> = {},
) {
  const controller = new AbortController();
  const requests: Headers[] = [];
  const waits: number[] = [];
  const states: StreamState[] = [];
  const events: SseEvent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: URL, init: RequestInit) => {
      expect(input.pathname).toBe('/api/v1/events/stream');
      expect(init.credentials).toBe('same-origin');
      const headers = new Headers(init.headers);
      requests.push(headers);
      const answer = answers.shift();
      if (answer === undefined) {
        controller.abort();
        return Promise.reject(new DOMException('Aborted', 'AbortError'));
      }
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve(typeof answer === 'function' ? answer(headers) : answer);
    }),
  );
  const ended = followEventStream({
    signal: controller.signal,
    lastEventId: '',
    onEvent: (event) => events.push(event),
    onState: (state) => states.push(state),
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => 1,
    ...options,
  });
  return { ended, requests, waits, states, events, controller };
}

const EVENT = (id: string) => `id: ${id}\nevent: link.created\ndata: {"id":"${id}"}\n\n`;

afterEach(() => vi.useRealTimers());

describe('the waits between attempts', () => {
  it('double from the stream’s retry hint up to a minute, drawn from the upper half', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((failures) => backoffMs(failures, 3000, () => 1))).toEqual([
      3000, 6000, 12_000, 24_000, 48_000, 60_000, 60_000,
    ]);
    expect(backoffMs(2, 3000, () => 0)).toBe(3000);
  });

  it('read Retry-After as seconds or as a date, and nothing else', () => {
    expect(retryAfterMs('30')).toBe(30_000);
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe('following the event stream', () => {
  it('sends the session’s header, hands on each event, and resumes after the last one with Last-Event-ID', async () => {
    const { ended, requests, waits, states, events } = follow([
      streamOf(`retry: 2000\n\n${EVENT('evt_1')}: keep-alive\n\n${EVENT('evt_2')}id: evt_3\ndata: {"cut":`),
      streamOf(EVENT('evt_3')),
    ]);
    expect(await ended).toBeNull();

    expect(events.map((event) => event.id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
    expect(requests.map((headers) => headers.get(SESSION_HEADER))).toEqual(['1', '1', '1']);
    expect(requests.map((headers) => headers.get('Accept'))).toEqual(Array(3).fill('text/event-stream'));
    // The event cut off was not received: the stream resumes after the one before it.
    expect(requests.map((headers) => headers.get('Last-Event-ID'))).toEqual([null, 'evt_2', 'evt_3']);
    // A lost stream is tried again after the wait its retry hint asks for.
    expect(waits).toEqual([2000, 2000]);
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'live', 'reconnecting']);
  });

  it('waits as long as a 429 or 503 asks, and longer and longer after failures that say nothing', async () => {
    const { ended, waits } = follow([
      refusal(429, { 'Retry-After': '30' }),
      refusal(503, { 'Retry-After': '5' }),
      new TypeError('Failed to fetch'),
      refusal(502),
      refusal(200),
    ]);
    expect(await ended).toBeNull();
    expect(waits).toEqual([30_000, 5000, 12_000, 24_000, 48_000]);
  });

  it('starts again from the first wait once a stream opened', async () => {
    const { ended, waits } = follow([
      new TypeError('Failed to fetch'),
      refusal(503),
      streamOf(''),
      refusal(503),
    ]);
    await ended;
    expect(waits).toEqual([3000, 6000, 3000, 6000]);
  });

  it('stops for good on a 401 (the session is gone) and on a 403 (it may not read links)', async () => {
    const signedOut = follow([refusal(401), streamOf('')]);
    expect(await signedOut.ended).toBe('signed-out');
    expect(signedOut.requests).toHaveLength(1);

    const refused = follow([refusal(403), streamOf('')]);
    expect(await refused.ended).toBe('refused');
    expect(refused.waits).toEqual([]);
  });

  it('resumes from the id it is given, and stops at once when aborted, mid-stream or while waiting', async () => {
    const stream = openStream();
    const { ended, requests, events, controller } = follow([stream.response], { lastEventId: 'evt_9' });
    stream.write(EVENT('evt_10'));
    await vi.waitFor(() => expect(events).toHaveLength(1));
    controller.abort();
    expect(await ended).toBeNull();
    expect(requests.map((headers) => headers.get('Last-Event-ID'))).toEqual(['evt_9']);

    const waiting = follow([refusal(503, { 'Retry-After': '3600' })], { wait: undefined });
    await vi.waitFor(() => expect(waiting.requests).toHaveLength(1));
    waiting.controller.abort();
    expect(await waiting.ended).toBeNull();
  });

  it('takes a stream silent for longer than the keep-alives allow for lost, and opens another', async () => {
    vi.useFakeTimers();
    const silent = openStream();
    const { requests, states, controller } = follow([silent.response, openStream().response]);
    await vi.waitFor(() => expect(states).toContain('live'));
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1000);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    controller.abort();
  });
});
