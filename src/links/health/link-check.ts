import type { ClientRequest, IncomingMessage } from 'node:http';
import {
  type AddressPolicy,
  AddressRefusedError,
  checkedAddress,
  type CheckedAddress,
  PUBLIC_ADDRESSES_ONLY,
  requestPinned,
} from '../../common/outbound-address';

/** `ok`: the target answered; `broken`: it answered 404, 410 or 5xx, or not at all; `unknown`: it was not checked. */
export type LinkHealthStatus = 'ok' | 'broken' | 'unknown';

export interface LinkCheckResult {
  status: LinkHealthStatus;
  /** The status of the last answer, or null when none came. */
  httpStatus: number | null;
}

export interface LinkCheckOptions extends AddressPolicy {
  /** The whole check's deadline, DNS, every hop and the GET included (10 000 in production). */
  timeoutMs: number;
  /** Redirects followed (5). */
  maxRedirects: number;
  /**
   * The most body bytes ever read from an answer (a few KB; 0 is fine: the status is all that matters). The
   * checker closes the connection as soon as the headers are in, so it reads none: this is the bound it keeps.
   */
  maxBodyBytes: number;
  /** Sent as User-Agent. */
  userAgent: string;
}

export const DEFAULT_LINK_CHECK_OPTIONS: LinkCheckOptions = {
  ...PUBLIC_ADDRESSES_ONLY,
  timeoutMs: 10_000,
  maxRedirects: 5,
  maxBodyBytes: 4096,
  userAgent: 'Mozilla/5.0 (compatible; link-health-checker)',
};

/** Headers past this size end the check: a few kilobytes per answer at most, whatever the target sends. */
const MAX_HEADER_BYTES = 16 * 1024;

/** The target could not be reached or gave no answer the checker could read. */
class TargetUnreachable extends Error {
  constructor(readonly reason: unknown) {
    super('link target unreachable');
    this.name = 'TargetUnreachable';
  }
}

/** What one request learnt: all the check needs of an answer. */
interface Answer {
  status: number;
  location: string | null;
}

/**
 * Checks once whether the target of `url` is broken: HEAD (GET when HEAD is refused), following redirects, all
 * within `options.timeoutMs` and the address policy. Never throws for anything the network does; `signal`
 * (shutdown) ends the check as `unknown`.
 */
export async function checkLink(
  url: string,
  options: LinkCheckOptions,
  signal?: AbortSignal,
): Promise<LinkCheckResult> {
  let current = parseUrl(url);
  // A link to mail, a phone or an app cannot be checked over HTTP.
  if (current === null || !isHttp(current) || signal?.aborted === true) return unknown(null);

  // One deadline for the whole check, so neither redirects nor the GET after a HEAD can stretch it.
  const stop = new AbortController();
  const timedOut = new Error('link check timed out');
  const shutdown = new Error('link check aborted');
  const deadline = setTimeout(() => stop.abort(timedOut), options.timeoutMs);
  const onShutdown = () => stop.abort(shutdown);
  signal?.addEventListener('abort', onShutdown, { once: true });

  try {
    /** The status of the last answer of an earlier hop, reported when a later one never answers. */
    let lastStatus: number | null = null;
    for (let redirects = 0; ; redirects += 1) {
      let answer: Answer;
      try {
        answer = await askOnce(current, options, stop.signal);
      } catch (error) {
        return withoutAnswer(error, lastStatus, stop.signal.reason === shutdown);
      }
      if (!isRedirect(answer.status) || answer.location === null) return verdict(answer.status);
      if (redirects >= options.maxRedirects) return broken(answer.status);
      const next = parseUrl(answer.location, current);
      // A browser shows an error for a redirect it cannot read: the visitor gets no page.
      if (next === null) return broken(answer.status);
      // A redirect into an app (`market:`, `tg:`, `mailto:`) is a working link for the browser or phone that
      // follows it, and not ours to judge: the target answered, so the link is ok.
      if (!isHttp(next)) return ok(answer.status);
      lastStatus = answer.status;
      current = next;
    }
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onShutdown);
  }
}

/**
 * The outcome of a hop that got no answer, `lastStatus` being that of the hop before it. Only what the network
 * (or the policy, or shutdown) did is an outcome: any other error is a programmer's, and is thrown.
 */
function withoutAnswer(error: unknown, lastStatus: number | null, shutDown: boolean): LinkCheckResult {
  // Stopped for shutdown: the link was not checked, whatever the request made of being stopped.
  if (shutDown) return unknown(lastStatus);
  // A host we may not connect to is one we cannot check, not one that is broken.
  if (error instanceof AddressRefusedError) return unknown(lastStatus);
  if (error instanceof TargetUnreachable) {
    return isHeaderOverflow(error.reason) ? unknown(lastStatus) : broken(lastStatus);
  }
  throw error;
}

/** One hop: HEAD, and GET when the server refuses HEAD (405, or 501 from one that knows no HEAD). */
async function askOnce(url: URL, options: LinkCheckOptions, stop: AbortSignal): Promise<Answer> {
  const target = await addressFor(url, options, stop);
  const head = await exchange('HEAD', url, target, options, stop);
  if (head.status !== 405 && head.status !== 501) return head;
  return exchange('GET', url, target, options, stop);
}

/**
 * The address the policy allows for `url`'s host (AddressRefusedError when it refuses it), resolved within the
 * check's deadline. A failed or stalled resolution is TargetUnreachable; the resolver is raced against `stop`
 * so that, ended, it leaves no timer of `checkedAddress` behind.
 */
async function addressFor(url: URL, options: LinkCheckOptions, stop: AbortSignal): Promise<CheckedAddress> {
  const policy: AddressPolicy = {
    resolve: (host) => untilStopped(options.resolve(host), stop),
    allowAddress: (address) => options.allowAddress(address),
  };
  return checkedAddress(url.hostname, policy, {
    // The check's own deadline, set earlier with the same length, ends the resolution first.
    ms: options.timeoutMs,
    error: () => new TargetUnreachable(new Error('resolution timed out')),
  });
}

/** `promise`, unless `stop` aborts first; a rejection of either is TargetUnreachable. */
function untilStopped<T>(promise: Promise<T>, stop: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(new TargetUnreachable(stop.reason));
    if (stop.aborted) {
      onStop();
      return;
    }
    stop.addEventListener('abort', onStop, { once: true });
    promise.then(
      (value) => {
        stop.removeEventListener('abort', onStop);
        resolve(value);
      },
      (error: unknown) => {
        stop.removeEventListener('abort', onStop);
        reject(new TargetUnreachable(error));
      },
    );
  });
}

/**
 * Sends one request to the checked address and settles once its socket is closed, so the check leaves no
 * connection behind. The connection is cut as soon as the status line and headers are in: no byte of a body,
 * however big or endless, is read.
 */
function exchange(
  method: 'HEAD' | 'GET',
  url: URL,
  target: CheckedAddress,
  options: LinkCheckOptions,
  stop: AbortSignal,
): Promise<Answer> {
  // Thrown here, before any connection, an error is the caller's (a bad user agent): it is not caught. The socket
  // connects to the address the policy judged, never to a second answer of the resolver, and is the check's own.
  const request: ClientRequest = requestPinned(url, target, {
    method,
    signal: stop,
    maxHeaderSize: MAX_HEADER_BYTES,
    headers: { 'user-agent': options.userAgent, accept: '*/*' },
  });
  return new Promise<Answer>((resolve, reject) => {
    let answer: Answer | null = null;
    let failure: unknown = new Error('connection closed without an answer');
    request.on('response', (response: IncomingMessage) => {
      const location = response.headers.location;
      answer = { status: response.statusCode ?? 0, location: typeof location === 'string' ? location : null };
      request.destroy();
    });
    // Kept to the end: a request destroyed after its answer may still report the cut.
    request.on('error', (error) => (failure = error));
    request.on('close', () => (answer === null ? reject(new TargetUnreachable(failure)) : resolve(answer)));
    request.end();
  });
}

function parseUrl(location: string, base?: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/**
 * Headers larger than the checker reads: a site a browser may well show (browsers take far bigger ones), so
 * the check cannot tell, rather than a broken link.
 */
function isHeaderOverflow(error: unknown): boolean {
  // Read by shape: an error of Node's own may come from another realm than this module's Error (a test's vm).
  return (
    typeof error === 'object' && error !== null && 'code' in error && error.code === 'HPE_HEADER_OVERFLOW'
  );
}

/** A final answer: gone (404, 410) or failing (5xx) is broken; any other answer, even 401 or 429, is a page. */
function verdict(status: number): LinkCheckResult {
  return status === 404 || status === 410 || status >= 500 ? broken(status) : ok(status);
}

function ok(httpStatus: number): LinkCheckResult {
  return { status: 'ok', httpStatus };
}

function broken(httpStatus: number | null): LinkCheckResult {
  return { status: 'broken', httpStatus };
}

function unknown(httpStatus: number | null): LinkCheckResult {
  return { status: 'unknown', httpStatus };
}
