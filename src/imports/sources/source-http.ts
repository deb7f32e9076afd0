import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import {
  addressOf,
  type AddressPolicy,
  allowingPrivate,
  type CheckedAddress,
  requestPinned,
} from '../../common/outbound-address';
import { SourceError } from './source';

/** A request's query: an absent (undefined) value is left out, a list is repeated. */
export type SourceQuery = Record<string, string | number | string[] | undefined>;

export interface SourceHttpOptions extends AddressPolicy {
  /** Lifts the address policy (`IMPORT_ALLOW_PRIVATE_ADDRESSES`). */
  allowPrivateAddresses: boolean;
  /** One request, from resolving the name to the last byte of the answer. */
  timeoutMs: number;
  /** Requests a second at most, whatever the source allows. */
  requestsPerSecond: number;
  /** The most of one answer that is read; a larger one fails the request. */
  maxResponseBytes: number;
  /** Stops waiting (for a rate limit, a retry) when the import is cancelled or the service stops. */
  signal?: AbortSignal;
  /** Waits `ms` unless the signal aborts first; a test's clock may stand in. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The answer of a source, read whole. */
export interface SourceAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

const MAX_REDIRECTS = 3;
/** Tries of a request that failed on the way (a dropped connection, a 5xx, a 429): the source may recover. */
const MAX_TRIES = 4;
/** The longest a source's `Retry-After` (or rate-limit reset) is waited for; longer is a failure. */
const MAX_WAIT_MS = 120_000;
const USER_AGENT = 'shortlink-import';

/** Failed on the way rather than refused: worth another try. */
class TransientFailure extends Error {}

/**
 * Reads a shortener's API for an import: JSON over HTTP, each name resolved and judged by the outbound address
 * policy and connected to as judged, redirects followed (each judged again) up to three, every request bounded in
 * time and size, at most `requestsPerSecond`, and slower when the source says so (`Retry-After` on a 429 or 503,
 * `X-RateLimit-Remaining: 0` with its reset). Failures are SourceErrors whose messages never hold the request's
 * headers, where credentials travel.
 */
export class SourceHttp {
  private nextRequestAt = 0;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    private readonly base: URL,
    private readonly headers: OutgoingHttpHeaders,
    private readonly options: SourceHttpOptions,
  ) {
    this.sleep = options.sleep ?? abortableSleep;
  }

  /** The JSON of `path` (relative to the base URL) with `query`, from a 2xx answer; anything else throws. */
  async json<T>(path: string, query: SourceQuery = {}): Promise<T> {
    const answer = await this.get(path, query);
    if (answer.status < 200 || answer.status > 299) throw refusal(answer.status, path);
    try {
      return JSON.parse(answer.body.toString('utf8')) as T;
    } catch {
      throw new SourceError(`the source answered ${path} with something other than JSON`);
    }
  }

  /** The answer of `path` whatever its status, after redirects, retries and the rate limit's waits. */
  async get(path: string, query: SourceQuery = {}): Promise<SourceAnswer> {
    const url = this.urlOf(path, query);
    // Failures on the way are tried again while the request's time lasts; a source that asked for a wait is waited for.
    const started = Date.now();
    const left = () => this.options.timeoutMs - (Date.now() - started);
    for (let attempt = 1; ; attempt += 1) {
      await this.awaitTurn();
      try {
        const answer = await this.follow(url, Math.max(1, left()));
        this.noteRateLimit(answer);
        if (answer.status === 429 || answer.status >= 500) {
          const wait = retryAfterMs(answer.headers['retry-after']) ?? backoffMs(attempt);
          if (attempt >= MAX_TRIES || wait > MAX_WAIT_MS) return answer;
          await this.sleep(wait, this.options.signal);
          continue;
        }
        return answer;
      } catch (error) {
        const retried =
          error instanceof TransientFailure && attempt < MAX_TRIES && left() > backoffMs(attempt);
        if (!retried) {
          throw error instanceof SourceError
            ? error
            : new SourceError(error instanceof Error ? error.message : 'failed');
        }
        await this.sleep(backoffMs(attempt), this.options.signal);
      }
    }
  }

  private urlOf(path: string, query: SourceQuery): URL {
    const url = new URL(
      path.replace(/^\//, ''),
      this.base.href.endsWith('/') ? this.base : `${this.base.href}/`,
    );
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    return url;
  }

  /** Spaces requests evenly at the configured rate, and past a reset the source announced. */
  private async awaitTurn(): Promise<void> {
    if (this.options.signal?.aborted) throw new SourceError('the import was stopped');
    const now = Date.now();
    const at = Math.max(now, this.nextRequestAt);
    this.nextRequestAt = at + 1000 / this.options.requestsPerSecond;
    if (at > now) await this.sleep(at - now, this.options.signal);
  }

  /** `X-RateLimit-Remaining: 0`: no request before the reset the source gives (seconds, or a Unix time). */
  private noteRateLimit(answer: SourceAnswer): void {
    if (headerValue(answer.headers['x-ratelimit-remaining']) !== '0') return;
    const reset = Number(headerValue(answer.headers['x-ratelimit-reset']));
    const retry = retryAfterMs(answer.headers['retry-after']);
    let waitMs = retry ?? 1000;
    if (Number.isFinite(reset) && reset > 0) {
      // Large numbers are a moment (Unix seconds); small ones a delay.
      waitMs = reset > 1_000_000_000 ? reset * 1000 - Date.now() : reset * 1000;
    }
    this.nextRequestAt = Math.max(
      this.nextRequestAt,
      Date.now() + Math.min(Math.max(waitMs, 0), MAX_WAIT_MS),
    );
  }

  private async follow(start: URL, deadlineMs: number): Promise<SourceAnswer> {
    let url = start;
    const started = Date.now();
    for (let hop = 0; ; hop += 1) {
      const answer = await this.once(url, Math.max(1, deadlineMs - (Date.now() - started)));
      const location = headerValue(answer.headers.location);
      if (answer.status < 300 || answer.status > 399 || location === undefined) return answer;
      if (hop >= MAX_REDIRECTS)
        throw new SourceError(`the source redirected more than ${MAX_REDIRECTS} times`);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new SourceError('the source redirected to an address that is not http or https');
      }
      url = next;
    }
  }

  private async once(url: URL, deadlineMs: number): Promise<SourceAnswer> {
    const started = Date.now();
    const address = await this.addressOf(url, deadlineMs);
    // Credentials go to the source's own origin only, never to where it redirects elsewhere.
    const headers = url.origin === this.base.origin ? this.headers : {};
    return this.request(url, address, headers, Math.max(1, deadlineMs - (Date.now() - started)));
  }

  private addressOf(url: URL, deadlineMs: number): Promise<CheckedAddress> {
    return addressOf(url, allowingPrivate(this.options, this.options.allowPrivateAddresses), deadlineMs, {
      refused: () =>
        new SourceError(
          `the source ${url.hostname} is on an address imports may not reach (IMPORT_ALLOW_PRIVATE_ADDRESSES)`,
        ),
      timedOut: () => new TransientFailure(`the source's name ${url.hostname} did not resolve in time`),
      unresolved: () => new SourceError(`the source's name ${url.hostname} does not resolve`),
    });
  }

  private request(
    url: URL,
    address: CheckedAddress,
    headers: OutgoingHttpHeaders,
    deadlineMs: number,
  ): Promise<SourceAnswer> {
    const limit = this.options.maxResponseBytes;
    return new Promise<SourceAnswer>((resolve, reject) => {
      const request = requestPinned(
        url,
        address,
        { method: 'GET', headers: { accept: 'application/json', 'user-agent': USER_AGENT, ...headers } },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limit) {
              request.destroy(new SourceError(`the source's answer is larger than ${limit} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () =>
            size > limit
              ? reject(new SourceError(`the source's answer is larger than ${limit} bytes`))
              : resolve({
                  status: response.statusCode ?? 0,
                  headers: response.headers,
                  body: Buffer.concat(chunks),
                }),
          );
          response.on('error', (error) => reject(asFailure(error)));
        },
      );
      const timer = setTimeout(
        () =>
          request.destroy(
            new TransientFailure(`the source did not answer within ${this.options.timeoutMs} ms`),
          ),
        deadlineMs,
      );
      const abort = () => request.destroy(new SourceError('the import was stopped'));
      this.options.signal?.addEventListener('abort', abort, { once: true });
      request.on('error', (error) => reject(asFailure(error)));
      request.on('close', () => {
        clearTimeout(timer);
        this.options.signal?.removeEventListener('abort', abort);
      });
      request.end();
    });
  }
}

/** A connection's failure as this module says it: its own errors kept, the system's retried. */
function asFailure(error: Error): Error {
  if (error instanceof SourceError || error instanceof TransientFailure) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new TransientFailure(`the source could not be reached (${code ?? 'connection failed'})`);
}

/** A refusal the import reports: credentials, a missing path, or the source's own failure. */
function refusal(status: number, path: string): SourceError {
  if (status === 401 || status === 403) {
    return new SourceError(`the source refused the credentials (${status})`);
  }
  if (status === 404) return new SourceError(`the source has no ${path} (404): is it a source of that kind?`);
  return new SourceError(`the source answered ${status} to ${path}`);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now. */
function retryAfterMs(value: string | string[] | undefined): number | null {
  const text = headerValue(value);
  if (text === undefined || text.trim() === '') return null;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function backoffMs(attempt: number): number {
  return 500 * 2 ** (attempt - 1);
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SourceError('the import was stopped'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new SourceError('the import was stopped'));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Makes the HTTP client of a source: its base URL and the headers its credentials travel in. */
export type SourceConnector = (base: URL, headers: OutgoingHttpHeaders) => SourceHttp;

/**
 * The client of the source at `url` (`what` names it in the refusal of an invalid one: `the Kutt URL`), made on
 * first use: an adapter is made without a request, and an invalid URL fails the import that reads it.
 */
export function connectOnFirstUse(
  connect: SourceConnector,
  url: string,
  what: string,
  headers: OutgoingHttpHeaders,
): () => SourceHttp {
  let client: SourceHttp | null = null;
  return () => (client ??= connect(baseUrlOf(url, what), headers));
}

function baseUrlOf(url: string, what: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new SourceError(`${what} is not a valid URL`);
  }
}
