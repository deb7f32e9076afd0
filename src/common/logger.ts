import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger as Pino, type Level, type LoggerOptions } from 'pino';
import type { ServerConfig } from '../config/app-config';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id, given by {@link requestIdMiddleware} or {@link requestLogger}: what its log lines carry. */
    id?: string;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's X-Request-Id when it is sane. */
export function givenRequestId(request: IncomingMessage): string | undefined {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : undefined;
}

/** The caller's X-Request-Id when it is sane, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  return givenRequestId(request) ?? randomUUID();
}

/** The request's id ({@link requestIdOf}), echoed back in the response. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const id = requestIdOf(request);
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
  request: IncomingMessage & { originalUrl?: string },
  response: ServerResponse,
  error?: Error,
): 'error' | 'warn' | 'info' {
  if (error !== undefined || response.statusCode >= 500) return 'error';
  if (response.statusCode < 400) return 'info';
  const path = (request.originalUrl ?? request.url ?? '').split('?')[0];
  return path === '/api' || path.startsWith('/api/') ? 'warn' : 'info';
}

/**
 * How every line of the process's log is written: its level as a label (`"level":"info"`, not pino's 30) and its
 * time in ISO 8601, UTC (`"time":"2026-11-26T10:00:00.000Z"`, not epoch milliseconds), which log pipelines read
 * as they are.
 */
export function logOptions(config: Pick<ServerConfig, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  };
}

/** The process's structured log: JSON lines on stdout, at the configured level ({@link logOptions}). */
export function createLog(config: Pick<ServerConfig, 'logLevel'>, destination?: DestinationStream): Pino {
  return destination === undefined ? pino(logOptions(config)) : pino(logOptions(config), destination);
}

/** What a log line says of a request: its id, method and path; never its query, headers or body. */
export function requestFields(request: IncomingMessage & { id?: unknown; originalUrl?: string }): {
  id: unknown;
  method: string | undefined;
  path: string;
} {
  return {
    id: request.id,
    method: request.method,
    path: (request.originalUrl ?? request.url ?? '').split('?')[0],
  };
}

/**
 * Structured request logs: one line a request with its id (a caller's X-Request-Id when it is sane, else a new
 * one, echoed back), never the Authorization header or cookies, written when the answer ends: `request completed`,
 * or `request errored` for a 5xx or an answer that failed, at {@link requestLogLevel}. Nothing of the line is built
 * when its level is off, so that a service at `warn` pays nothing for the lines of its 2xx answers (pino-http made
 * a child logger per request whatever the level: 14% of what an API request left for the old generation). Not
 * bound to the request's async context: an AsyncLocalStorage would turn on Node's async hooks for every request of
 * the process, the redirect's included, so a line logged while answering a request names the request itself (see
 * HttpExceptionFilter).
 */
export function requestLogger(
  log: Pino,
): (request: IncomingMessage, response: ServerResponse, next: () => void) => void {
  return (request, response, next) => {
    request.id ??= assignRequestId(request, response);
    const started = Date.now();
    const ended = (error?: Error): void => {
      response.off('close', ended);
      response.off('finish', ended);
      response.off('error', ended);
      const level = requestLogLevel(request, response, error);
      if (!log.isLevelEnabled(level)) return;
      const req = requestFields(request);
      const res = { statusCode: response.statusCode };
      const responseTime = Date.now() - started;
      if (error === undefined && response.statusCode < 500) {
        log[level]({ req, res, responseTime }, 'request completed');
      } else {
        const err = error ?? new Error(`failed with status code ${response.statusCode}`);
        log[level]({ req, res, err, responseTime }, 'request errored');
      }
    };
    response.on('close', ended);
    response.on('finish', ended);
    response.on('error', ended);
    next();
  };
}

const NEST_LEVELS: Record<'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal', Level> = {
  log: 'info',
  error: 'error',
  warn: 'warn',
  debug: 'debug',
  verbose: 'trace',
  fatal: 'fatal',
};

/**
 * Nest's logger interface on the structured log. Nest calls it as `(message, ...params, context)`; an error's
 * call may carry a stack before the context. A message that is an object gives its fields to the line (`msg` its
 * text), an Error is logged as `err`.
 */
export class AppLogger implements LoggerService {
  constructor(private readonly out: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(kind: keyof typeof NEST_LEVELS, message: unknown, params: unknown[]): void {
    const level = NEST_LEVELS[kind];
    if (!this.out.isLevelEnabled(level)) return;
    const rest = params.filter((param) => param !== undefined);
    const fields: Record<string, unknown> = {};
    const last = rest[rest.length - 1];
    if (typeof last === 'string' && !last.includes('\n')) fields.context = rest.pop();
    if (kind === 'error' && typeof rest[0] === 'string') fields.stack = rest.shift();
    if (rest.length > 0) fields.details = rest;
    if (message instanceof Error) {
      this.out[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...own } = message as Record<string, unknown>;
      this.out[level]({ ...fields, ...own }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.out[level](fields, String(message));
    }
  }
}
