import {
  type ArgumentsHost,
  BadRequestException,
  HttpException,
  InternalServerErrorException,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { runInNewContext } from 'node:vm';
import { QueryFailedError } from 'typeorm';
import { ErrorPages, type ErrorPage } from './error-pages';
import {
  OwnerOnlyException,
  PasswordRequiredException,
  ResourceNotFoundException,
  TooManyAttemptsException,
  ValidationFailedException,
} from './exceptions';
import { HttpExceptionFilter } from './http-exception.filter';

interface Recorded {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  sent?: string;
}

/** An ArgumentsHost whose response records what the filter sends. */
function fakeHost(headersSent = false): { host: ArgumentsHost; recorded: Recorded } {
  const recorded: Recorded = {};
  const response = {
    headersSent,
    status(code: number) {
      recorded.status = code;
      return response;
    },
    json(body: unknown) {
      recorded.body = body;
      return response;
    },
    set(fields: Record<string, string>) {
      if (Object.keys(fields).length > 0) recorded.headers = { ...recorded.headers, ...fields };
      return response;
    },
    send(body: string) {
      recorded.sent = body;
      return response;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({}), getNext: () => undefined }),
    getType: () => 'http',
    getArgs: () => [{}, response],
    getArgByIndex: (index: number) => [{}, response][index],
  } as unknown as ArgumentsHost;
  return { host, recorded };
}

function handle(exception: unknown, pages: ErrorPages | null = null): Recorded {
  const { host, recorded } = fakeHost();
  new HttpExceptionFilter(pages).catch(exception, host);
  return recorded;
}

const UNAVAILABLE_ANSWER = {
  status: 503,
  headers: { 'Retry-After': '1' },
  body: { message: 'Service unavailable.', status: 503 },
};

function driverError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The logger's `error` and `warn`, in that order, silenced and recorded in each test of the calling block. */
function loggerSpies(): jest.SpyInstance[] {
  const spies: jest.SpyInstance[] = [];
  beforeEach(() => {
    spies.push(
      jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined),
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
    );
  });
  afterEach(() => {
    for (const spy of spies.splice(0)) spy.mockRestore();
  });
  return spies;
}

describe('HttpExceptionFilter', () => {
  const logged = loggerSpies();

  it.each([
    ['connection refused', driverError('connect ECONNREFUSED 10.0.0.5:5432', 'ECONNREFUSED')],
    ['administrator shutdown', driverError('terminating connection due to administrator command', '57P01')],
    ['a connection exception class', driverError('connection failure', '08006')],
    ['too many connections', driverError('sorry, too many clients already', '53300')],
    ['the statement timeout', driverError('canceling statement due to statement timeout', '57014')],
    ['no answer within the client-side query timeout', new Error('Query read timeout')],
  ])('answers 503 when the database is unreachable: %s, as a QueryFailedError', (_name, cause) => {
    const exception = new QueryFailedError('SELECT * FROM "secret_table"', [], cause);
    expect(handle(exception)).toEqual(UNAVAILABLE_ANSWER);
  });

  it('tells every 503 when to try again (Retry-After), whatever raised it', () => {
    expect(handle(new ServiceUnavailableException()).headers).toEqual({ 'Retry-After': '1' });
    expect(handle(new NotFoundException()).headers).toBeUndefined();
  });

  it.each([
    ['08000', 'connection exception'],
    ['08001', 'unable to establish a connection'],
    ['08003', 'connection does not exist'],
    ['08006', 'connection failure'],
    ['08P01', 'protocol violation'],
    ['53000', 'insufficient resources'],
    ['53100', 'disk full'],
    ['53200', 'out of memory'],
    ['53300', 'too many connections'],
    ['53400', 'configuration limit exceeded'],
    ['57P01', 'administrator shutdown'],
    ['57P02', 'crash shutdown'],
    ['57P03', 'cannot connect now'],
    ['57P04', 'database dropped'],
    ['57P05', 'idle session timeout'],
    ['57014', 'statement cancelled by the statement timeout'],
    ['25006', 'read-only transaction: a write that reached a standby during a failover'],
  ])('answers 503 to SQLSTATE %s (%s), connecting or from a statement, and logs a warning', (code, name) => {
    expect(handle(driverError(name, code))).toEqual(UNAVAILABLE_ANSWER);
    expect(handle(new QueryFailedError('SELECT 1', [], driverError(name, code)))).toEqual(UNAVAILABLE_ANSWER);
    expect(logged[1]).toHaveBeenCalledTimes(2);
    expect(logged[0]).not.toHaveBeenCalled();
  });

  it.each([
    ['3D000', 'database "links" does not exist'],
    ['28000', 'no pg_hba.conf entry for host'],
    ['28P01', 'password authentication failed for user "links"'],
  ])('answers 503 to SQLSTATE %s (%s), logged as an error: an operator has to act', (code, message) => {
    expect(handle(driverError(message, code))).toEqual(UNAVAILABLE_ANSWER);
    expect(logged[0]).toHaveBeenCalledTimes(1);
    expect(logged[1]).not.toHaveBeenCalled();
  });

  it('answers 503 when the database refuses a new session (55000, not accepting connections)', () => {
    const refused = driverError('database "links" is not currently accepting connections', '55000');
    expect(handle(refused)).toEqual(UNAVAILABLE_ANSWER);
  });

  it('answers 500 to 55000 from a statement: an object not in the state it needs is a bug of ours', () => {
    const exception = new QueryFailedError(
      'SELECT currval($1)',
      ['links_id_seq'],
      driverError('currval of sequence "links_id_seq" is not yet defined in this session', '55000'),
    );
    expect(handle(exception)).toEqual({ status: 500, body: { message: 'Server error.', status: 500 } });
  });

  it('answers 503 to a socket error from another realm, which fails instanceof Error', () => {
    const foreign = runInNewContext(
      'Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" })',
    ) as unknown;
    expect(foreign instanceof Error).toBe(false);
    expect(handle(foreign)).toEqual(UNAVAILABLE_ANSWER);
  });

  it('answers 503 for a bare driver error (the pool failing to connect)', () => {
    expect(handle(driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toEqual(
      UNAVAILABLE_ANSWER,
    );
    expect(handle(new Error('Connection terminated unexpectedly'))).toEqual(UNAVAILABLE_ANSWER);
  });

  it('answers a generic 500 for an unknown error, logs it and never echoes it', () => {
    const exception = new Error('secret SQL: SELECT key_hash FROM api_keys');
    const recorded = handle(exception);
    expect(recorded).toEqual({ status: 500, body: { message: 'Server error.', status: 500 } });
    expect(JSON.stringify(recorded.body)).not.toContain('secret');
    expect(logged[0]).toHaveBeenCalledWith({ err: exception, req: expect.objectContaining({}) as unknown });
  });

  it('answers 500, not 503 or 400, for a query error that is not about the connection', () => {
    const exception = new QueryFailedError(
      'SELECT * FROM "internal_table"',
      [],
      driverError('relation "internal_table" does not exist', '42P01'),
    );
    const recorded = handle(exception);
    expect(recorded).toEqual({ status: 500, body: { message: 'Server error.', status: 500 } });
    expect(JSON.stringify(recorded.body)).not.toContain('internal_table');
  });

  it.each([null, undefined, 'a string', 42, { message: 'an object' }])(
    'answers 500 for the thrown value %p',
    (value) => {
      expect(handle(value)).toEqual({ status: 500, body: { message: 'Server error.', status: 500 } });
    },
  );

  it('answers 422 with the field map of a ValidationFailedException', () => {
    const exception = new ValidationFailedException({
      name: ['The name field is required.'],
      'targets.0.key': ['The selected targets.0.key is invalid.'],
    });
    expect(handle(exception)).toEqual({
      status: 422,
      body: {
        message: {
          name: ['The name field is required.'],
          'targets.0.key': ['The selected targets.0.key is invalid.'],
        },
        status: 422,
      },
    });
    expect(handle(ValidationFailedException.of('name', 'The name has already been taken.'))).toEqual({
      status: 422,
      body: { message: { name: ['The name has already been taken.'] }, status: 422 },
    });
  });

  it.each([
    [new UnauthorizedException(), 401, 'Unauthenticated.'],
    [new UnauthorizedException('passport says no'), 401, 'Unauthenticated.'],
    [new ResourceNotFoundException(), 404, 'Resource not found.'],
    [new NotFoundException('Cannot GET /api/v1/secret-route'), 404, 'Resource not found.'],
    [new BadRequestException('Unexpected token } in JSON at position 9'), 400, 'Bad request.'],
    [new PayloadTooLargeException(), 413, 'Payload too large.'],
    [new ThrottlerException(), 429, 'Too Many Attempts.'],
    [new InternalServerErrorException('secret detail'), 500, 'Server error.'],
  ])('answers %p with the contract message', (exception, status, message) => {
    expect(handle(exception)).toEqual({ status, body: { message, status } });
  });

  it.each([
    [new OwnerOnlyException(), 403, 'Forbidden.'],
    [new PasswordRequiredException(false), 401, 'Password required.'],
    [new PasswordRequiredException(true), 403, 'Password required.'],
    [new ResourceNotFoundException().seenBy({ domain: 'sho.rt' }), 404, 'Resource not found.'],
  ])('answers the refusal %p in its own words', (exception, status, message) => {
    expect(handle(exception)).toEqual({ status, body: { message, status } });
  });

  it('answers too many attempts with 429 and Retry-After in whole seconds, at least one', () => {
    expect(handle(new TooManyAttemptsException(60_001))).toEqual({
      status: 429,
      body: { message: 'Too Many Attempts.', status: 429 },
      headers: { 'Retry-After': '61' },
    });
    expect(handle(new TooManyAttemptsException(1)).headers).toEqual({ 'Retry-After': '1' });
  });

  describe('with the pages of the visitor routes', () => {
    const page: ErrorPage = {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: '<!doctype html>',
    };
    class OnePage extends ErrorPages {
      readonly asked: unknown[] = [];
      pageFor(exception: unknown): ErrorPage | null {
        this.asked.push(exception);
        return exception instanceof PasswordRequiredException && exception.visitor !== null ? page : null;
      }
    }

    it('sends the page they have for an error, with its own status and headers', () => {
      const pages = new OnePage();
      const exception = new PasswordRequiredException(false).seenBy({ domain: 'sho.rt', action: '/a/stats' });
      expect(handle(exception, pages)).toEqual({ status: 200, headers: page.headers, sent: page.body });
      expect(pages.asked).toEqual([exception]);
    });

    it('answers with the envelope when they have none', () => {
      expect(handle(new PasswordRequiredException(false), new OnePage())).toEqual({
        status: 401,
        body: { message: 'Password required.', status: 401 },
      });
      expect(handle(new Error('unexpected'), new OnePage())).toEqual({
        status: 500,
        body: { message: 'Server error.', status: 500 },
      });
    });
  });

  it('passes a health report through as its body', () => {
    const report = {
      status: 'error',
      info: {},
      error: { database: { status: 'down' } },
      details: { database: { status: 'down' } },
    };
    expect(handle(new ServiceUnavailableException(report))).toEqual({ status: 503, body: report });
  });

  it('does nothing once the headers are sent', () => {
    const { host, recorded } = fakeHost(true);
    new HttpExceptionFilter().catch(new HttpException('late', 500), host);
    expect(recorded).toEqual({});
  });
});

/** Everything passed to the logger, errors opened up (message, stack and every property, nested), as one text. */
function loggedText(spies: jest.SpyInstance[]): string {
  const seen = new Set<unknown>();
  const open = (value: unknown, depth: number): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value) || depth > 5) return '[seen]';
    seen.add(value);
    const fields: Record<string, unknown> = {};
    for (const key of Object.getOwnPropertyNames(value)) {
      fields[key] = open((value as Record<string, unknown>)[key], depth + 1);
    }
    if (value instanceof Error) Object.assign(fields, { message: value.message, stack: value.stack });
    return fields;
  };
  return JSON.stringify(spies.flatMap((spy) => spy.mock.calls.map((call: unknown[]) => open(call, 0))));
}

describe('HttpExceptionFilter logs of database errors', () => {
  const SECRET = 's3cr3t-value';
  const logged = loggerSpies();

  /** A query error as TypeORM throws it: the SQL, its bound values and pg's error with a detail quoting a value. */
  function queryFailed(code: string, message: string, fields: Record<string, string> = {}): QueryFailedError {
    const pgError = Object.assign(new Error(message), {
      code,
      severity: 'ERROR',
      detail: `Key (alias)=(${SECRET}) already exists.`,
      ...fields,
    });
    return new QueryFailedError(
      'INSERT INTO "links"("alias", "url", "password") VALUES ($1, $2, $3) RETURNING "id"',
      [SECRET, `https://example.com/?token=${SECRET}`, `scrypt$${SECRET}`],
      pgError,
    );
  }

  it('logs the SQL state, the constraint and table and a statement name of a failed query, never a bound value', () => {
    const recorded = handle(
      queryFailed('23505', 'duplicate key value violates unique constraint "links_alias_unique"', {
        constraint: 'links_alias_unique',
        table: 'links',
      }),
    );
    expect(recorded.status).toBe(500);
    const text = loggedText(logged);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('23505');
    expect(text).toContain('links_alias_unique');
    expect(text).toContain('INSERT links');
  });

  it('keeps a value out of the log where PostgreSQL quotes it in the message itself', () => {
    handle(queryFailed('22P02', `invalid input syntax for type integer: "${SECRET}"`));
    const text = loggedText(logged);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('22P02');
  });

  it('logs an unavailable database by its code alone, without the values of the query that met it', () => {
    const recorded = handle(queryFailed('57014', `canceling statement due to statement timeout (${SECRET})`));
    expect(recorded.status).toBe(503);
    const text = loggedText(logged);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('57014');
    expect(logged[1]).toHaveBeenCalled();
  });

  it('names a statement by its verb, its first table and a hash of its shape, values left out', () => {
    const withValue = queryFailed('23505', 'duplicate key');
    const other = new QueryFailedError(
      'INSERT INTO "links"("alias", "url", "password") VALUES ($1, $2, $3) RETURNING "id"',
      ['another-value'],
      Object.assign(new Error('duplicate key'), { code: '23505', severity: 'ERROR' }),
    );
    handle(withValue);
    handle(other);
    const [first, second] = (logged[0].mock.calls as { msg: string }[][]).map((call) => call[0].msg);
    expect(first).toMatch(/statement="INSERT links #[0-9a-f]{8}"/);
    expect(first).toBe(second);
  });
});
