import { SESSION_HEADER } from '../api/client';
import { SseParser, type SseEvent } from './sse';

export const STREAM_PATH = '/api/v1/events/stream';

/** Where a followed stream stands: before its first answer, open, or waiting to try again. */
export type StreamState = 'connecting' | 'live' | 'reconnecting';

/** Why a stream is followed no longer: the session is gone (401), or the service will not stream to it (403...). */
export type StreamEnd = 'signed-out' | 'refused';

/** The wait before a reconnection until the stream says its own (`retry:`), as the service does. */
const DEFAULT_RETRY_MS = 3000;
/** The longest wait between two attempts, however many failed. */
const MAX_WAIT_MS = 60_000;
/**
 * Silence after which an open stream is taken for lost: twice the 30 s between comments that the contract allows, and
 * some. A connection that a sleeping laptop or a changed network left half-open would otherwise wait for ever.
 */
export const SILENCE_MS = 65_000;

export interface FollowOptions {
  signal: AbortSignal;
  /** The last event received before, if any: the stream resumes after it (`Last-Event-ID`). */
  lastEventId: string;
  onEvent: (event: SseEvent) => void;
  onState: (state: StreamState) => void;
  /** Waits `ms`, or less if `signal` aborts; a test's stand-in takes no time. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/**
 * The wait before the attempt after `failures` failed ones: `baseMs` doubled each time up to a minute, then drawn
 * from the upper half of that, so that the clients an instance lost at once do not all come back at once.
 */
export function backoffMs(failures: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_WAIT_MS, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The wait a `Retry-After` asks for (seconds, or an HTTP date), in ms; null when there is none to read. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  const value = header?.trim() ?? '';
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Statuses worth another attempt: the service is busy (429, 503), failed for now (5xx) or timed out. */
function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Reads an open stream until it ends, is cut, `signal` aborts, or it says nothing for {@link SILENCE_MS}: each ends
 * the read, so the caller decides what comes next.
 */
async function readStream(
  body: ReadableStream<Uint8Array>,
  parser: SseParser,
  onEvent: (event: SseEvent) => void,
  signal: AbortSignal,
) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const stop = () => void reader.cancel().catch(() => undefined);
  let silence = setTimeout(stop, SILENCE_MS);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      clearTimeout(silence);
      if (done) return;
      silence = setTimeout(stop, SILENCE_MS);
      for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
    }
  } finally {
    clearTimeout(silence);
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Follows the session's event stream (`GET /api/v1/events/stream`, contract §14) with `fetch`, which sends the
 * session's header as EventSource cannot: each event to `onEvent`, and after a loss a new attempt that names the
 * last event received, so that none is missed. A 429 or 503 is tried again after its `Retry-After`, other failures
 * after growing waits. Resolves when `signal` aborts (null), or with why the service will not stream to this session.
 */
export async function followEventStream(options: FollowOptions): Promise<StreamEnd | null> {
  const { signal, onEvent, onState, wait = sleep, random = Math.random } = options;
  let lastId = options.lastEventId;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  onState('connecting');
  while (!signal.aborted) {
    let pause: number | null = null;
    try {
      const response = await globalThis.fetch(new URL(STREAM_PATH, window.location.origin), {
        credentials: 'same-origin',
        cache: 'no-store',
        headers: {
          Accept: 'text/event-stream',
          [SESSION_HEADER]: '1',
          ...(lastId === '' ? {} : { 'Last-Event-ID': lastId }),
        },
        signal,
      });
      const type = response.headers.get('content-type') ?? '';
      if (response.ok && response.body !== null && type.startsWith('text/event-stream')) {
        failures = 0;
        onState('live');
        const parser = new SseParser(lastId);
        try {
          await readStream(response.body, parser, onEvent, signal);
        } finally {
          lastId = parser.lastId;
          retryMs = parser.retryMs ?? retryMs;
        }
      } else {
        await response.body?.cancel();
        if (response.status === 401) return 'signed-out';
        if (!response.ok && !isTransient(response.status)) return 'refused';
        pause = retryAfterMs(response.headers.get('Retry-After'));
      }
    } catch {
      // The network failed, or the stream was cut mid-way: tried again below, unless it was the abort.
    }
    if (signal.aborted) break;
    failures += 1;
    onState('reconnecting');
    await wait(pause ?? backoffMs(failures, retryMs, random), signal);
  }
  return null;
}
