import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';

/** A request of the harness's own: API calls, sequential checks and exactly counted bursts. */
export interface Call {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as it came, for answers that are not text (images). */
  bytes: Buffer;
  ms: number;
}

const REQUEST_TIMEOUT_MS = 30_000;

export function send(origin: string, call: Call, agent?: Agent): Promise<Answer> {
  const url = new URL(call.path, origin);
  if (url.hostname !== '127.0.0.1') throw new Error(`The bench only talks to 127.0.0.1, not ${url.hostname}`);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const headers: Record<string, string> = { ...call.headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: call.method ?? 'GET', headers, agent, timeout: REQUEST_TIMEOUT_MS },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: bytes.toString('utf8'),
            bytes,
            ms: performance.now() - started,
          });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`No answer in ${REQUEST_TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** An API call with the bench key that must succeed; its JSON body. */
export async function api<T>(origin: string, key: string, call: Call): Promise<T> {
  const answer = await send(origin, {
    ...call,
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', ...call.headers },
  });
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(
      `${call.method ?? 'GET'} ${call.path} answered ${answer.status}: ${answer.body.slice(0, 500)}`,
    );
  }
  return JSON.parse(answer.body) as T;
}

export interface BurstResult {
  /** Answers by status code. */
  statuses: Map<number, number>;
  /** Answers by Location header, for redirects. */
  locations: Map<string, number>;
  failures: number;
  firstFailure: string | null;
  latenciesMs: number[];
  seconds: number;
}

/**
 * Exactly `total` requests over `concurrency` keep-alive connections, every answer awaited: counts without
 * requests left in flight, for the correctness checks and the create scenario.
 */
export async function burst(
  origin: string,
  total: number,
  concurrency: number,
  callOf: (index: number) => Call,
): Promise<BurstResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const result: BurstResult = {
    statuses: new Map(),
    locations: new Map(),
    failures: 0,
    firstFailure: null,
    latenciesMs: [],
    seconds: 0,
  };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const index = next;
      next += 1;
      try {
        const answer = await send(origin, callOf(index), agent);
        result.statuses.set(answer.status, (result.statuses.get(answer.status) ?? 0) + 1);
        const location = answer.headers.location;
        if (location !== undefined) result.locations.set(location, (result.locations.get(location) ?? 0) + 1);
        result.latenciesMs.push(answer.ms);
      } catch (error) {
        result.failures += 1;
        result.firstFailure ??= String(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  } finally {
    agent.destroy();
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

export function countOf(statuses: Map<number, number>, from: number, to: number): number {
  let count = 0;
  for (const [status, n] of statuses) if (status >= from && status <= to) count += n;
  return count;
}

/** The q-quantile (0..1) of some numbers, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
