import type { IncomingMessage } from 'node:http';
import { ALIAS_PATH } from '../links/alias';
import { isReservedAlias } from '../links/reserved-aliases';
import { setting } from '../config/settings';

/**
 * When traces are on, and which requests are traced. Nothing here loads OpenTelemetry: main.ts asks `tracingWanted`
 * before anything else is required, and the SDK is loaded only when it says yes.
 */

/**
 * On when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless
 * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`, as the OpenTelemetry specification defines them.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return (
    (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '').trim() !== '' ||
    (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim() !== ''
  );
}

/** `TRACE_REDIRECT_RATIO`, the share of visitor requests (`/:alias`) traced when no caller's trace says otherwise. */
export function redirectRatio(env: NodeJS.ProcessEnv): number {
  return setting(env, 'TRACE_REDIRECT_RATIO');
}

/** A visit: GET or HEAD of `/:alias`, the requests the redirect's fast path answers. */
export function isVisit(request: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url ?? '';
  const mark = url.indexOf('?');
  const match = ALIAS_PATH.exec(mark === -1 ? url : url.slice(0, mark));
  return match !== null && !isReservedAlias(match[1]);
}

/** Whether a W3C `traceparent` header is well formed, and if so whether its trace is sampled. */
export function parentSampled(traceparent: string | string[] | undefined): boolean | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-([\da-f]{2})/.exec(traceparent.trim());
  if (match === null) return undefined;
  return (parseInt(match[1], 16) & 1) === 1;
}

/**
 * Which incoming requests get no span (and no child spans: their queries are not traced either). The probes and the
 * metrics scrape, always; a visit, unless its caller's trace is sampled, or, with no caller's trace, but for one
 * in 1/`ratio` of them. Everything else (the API, the pages) is traced, and the configured sampler decides.
 */
export function untracedRequests(
  ratio: number,
  random: () => number = Math.random,
): (request: IncomingMessage) => boolean {
  return (request) => {
    const url = request.url ?? '/';
    if (url === '/metrics' || url === '/health' || url.startsWith('/health/')) return true;
    if (!isVisit(request)) return false;
    const sampled = parentSampled(request.headers.traceparent);
    return sampled === undefined ? random() >= ratio : !sampled;
  };
}

/** The route pattern of a request the routes answered (Express), or `/:alias` for a visit; else undefined. */
export function routeOf(
  request: IncomingMessage & { route?: { path?: unknown }; baseUrl?: string },
): string | undefined {
  const path = request.route?.path;
  if (typeof path === 'string') return `${request.baseUrl ?? ''}${path}`;
  return isVisit(request) ? '/:alias' : undefined;
}
