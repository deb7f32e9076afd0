import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, else a new one; echoed back in the response. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Gives every response its id, the OpenAPI UI's included: Express serves those routes before Nest's middleware
 * (the logger's among them), which then logs under this same id (`req.id`).
 */
export function requestIdMiddleware(
  request: IncomingMessage,
  response: ServerResponse,
  next: () => void,
): void {
  request.id = assignRequestId(request, response);
  next();
}

/**
 * The level of a request's log line: errors for 5xx; `warn` for an API client's 4xx, which an operator may have
 * to look into; `info` for a visitor's 4xx (an unknown or expired link, a wrong password, a rate limit), which is
 * the normal course of a public service and must not bury the warnings that need the operator.
 */
export function requestLogLevel(
  request: IncomingMessage,
  response: ServerResponse,
  error?: Error,
): 'error' | 'warn' | 'info' {
  if (error !== undefined || response.statusCode >= 500) return 'error';
  if (response.statusCode < 400) return 'info';
  const path = (request.url ?? '').split('?')[0];
  return path === '/api' || path.startsWith('/api/') ? 'warn' : 'info';
}

/**
 * Structured request logs: one line a request with its id (a caller's X-Request-Id when it is sane, else a new
 * one, echoed back), never the Authorization header or cookies.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: assignRequestId,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      customLogLevel: requestLogLevel,
      // Query strings are kept out of the log: a client may put anything there.
      serializers: {
        req: (request: { id: unknown; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          path: request.url.split('?')[0],
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
    },
  };
}
