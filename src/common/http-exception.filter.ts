import {
  ArgumentsHost,
  Catch,
  HttpException,
  Inject,
  Logger,
  Optional,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  constraintException,
  databaseUnavailability,
  describeDatabaseError,
  isDatabaseError,
} from './database-errors';
import { ERROR_MESSAGES as MESSAGES, errorEnvelope, type ErrorEnvelope } from './envelope';
import { ErrorPages } from './error-pages';
import { RefusalException, ValidationFailedException } from './exceptions';
import { requestFields } from './logger';

/**
 * The wait a 503 asks for, in seconds: a failover of the database takes some seconds, and a request refused while it
 * runs is refused quickly, so a client that waits a second at a time loses little and learns soon.
 */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** The frames of an error's stack without its first line, which repeats the message. */
function stackFrames(error: unknown): string | undefined {
  const stack = (error as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length === 0 ? undefined : frames.join('\n');
}

/** Whether an HttpException's own body is meant for the client as it is (the health checks' report). */
function isHealthReport(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'details' in body && 'status' in body;
}

/**
 * The one place where errors become responses: the contract's envelopes for the known cases, and for anything
 * unexpected a generic 500 that is logged (with the request id) but never echoed. A browser on a visitor's page is
 * shown that page's answer instead, when the visitor routes have one ({@link ErrorPages}).
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(HttpExceptionFilter.name);

  constructor(@Optional() @Inject(ErrorPages) private readonly pages: ErrorPages | null = null) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const request = host.switchToHttp().getRequest<Request>();

    const page = this.pages?.pageFor(exception, request) ?? null;
    if (page !== null) {
      response.status(page.status).set(page.headers).send(page.body);
      return;
    }
    if (exception instanceof HttpException && isHealthReport(exception.getResponse())) {
      response.status(exception.getStatus()).json(exception.getResponse());
      return;
    }
    const { status, body } = this.toEnvelope(exception, request);
    // Every 503 passes by itself (a database failing over, a shutdown): the client is told when to try again.
    if (status === 503) response.set({ 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) });
    if (exception instanceof RefusalException) response.set(exception.headers);
    response.status(status).json(body);
  }

  /** The envelope of an exception; what is logged names the request (its id, method and path). */
  private toEnvelope(exception: unknown, request: Request): { status: number; body: ErrorEnvelope } {
    const req = requestFields(request);
    if (exception instanceof ValidationFailedException) {
      return { status: 422, body: errorEnvelope(422, exception.fields) };
    }
    if (exception instanceof RefusalException) {
      // The contract's own words for it, which a status alone does not give ("Password required." with 401).
      return { status: exception.getStatus(), body: errorEnvelope(exception.getStatus(), exception.message) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status >= 500) this.logger.error({ err: exception, req });
      return { status, body: errorEnvelope(status, MESSAGES[status] ?? exception.message) };
    }
    const violation = constraintException(exception);
    if (violation !== null) return this.toEnvelope(violation, request);
    const unavailability = databaseUnavailability(exception);
    if (unavailability !== null) {
      const line = `Database unavailable: ${describeDatabaseError(exception)}`;
      // An outage may pass by itself; a database the service may not use needs an operator.
      if (unavailability === 'misconfiguration') this.logger.error({ msg: line, req });
      else this.logger.warn({ msg: line, req });
      return { status: 503, body: errorEnvelope(503, MESSAGES[503]!) };
    }
    if (isDatabaseError(exception)) {
      // The error itself carries the statement's parameters and PostgreSQL's detail, which quote values: the log
      // gets a description and the stack's frames, under a first line of its own.
      const line = `Database error: ${describeDatabaseError(exception)}`;
      const frames = stackFrames(exception);
      if (frames === undefined) this.logger.error({ msg: line, req });
      else this.logger.error({ msg: line, req }, `${line}\n${frames}`);
      return { status: 500, body: errorEnvelope(500, MESSAGES[500]!) };
    }
    this.logger.error({ err: exception, req });
    return { status: 500, body: errorEnvelope(500, MESSAGES[500]!) };
  }
}
