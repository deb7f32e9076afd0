import { Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { HttpExceptionFilter } from './http-exception.filter';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LogLevel } from '../config/app-config';
import { AppLogger, createLog, requestFields, requestLogger, requestLogLevel } from './logger';

/** A Nest logger over the process's log (as production builds it) whose lines are kept, parsed. */
function captured(level: LogLevel = 'trace'): { logger: AppLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLog(
    { logLevel: level },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger: new AppLogger(log), lines };
}

describe('createLog', () => {
  it('writes each line with its level as a label and its time in ISO 8601, UTC', () => {
    const raw: string[] = [];
    const log = createLog({ logLevel: 'info' }, { write: (line: string) => raw.push(line) });
    const before = Date.now();
    log.info({ req: { id: 'r-1' } }, 'started');
    log.error('failed');
    const lines = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.level)).toEqual(['info', 'error']);
    for (const line of lines) {
      expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(new Date(line.time as string).toISOString()).toBe(line.time);
      expect(Date.parse(line.time as string)).toBeGreaterThanOrEqual(before - 1);
    }
    expect(raw[0]).toMatch(/^\{"level":"info","time":"[^"]+Z",/);
    expect(lines[0]).toMatchObject({ msg: 'started', req: { id: 'r-1' } });
  });
});

describe('AppLogger', () => {
  it('writes each Nest level at its pino level, with the context Nest appends', () => {
    const { logger, lines } = captured();
    logger.log('started', 'Bootstrap');
    logger.warn('careful', 'ClickWriter');
    logger.debug('detail', 'LeanRedirect');
    logger.verbose('more', 'LeanRedirect');
    logger.fatal('gone', 'Main');
    expect(lines.map(({ level, msg, context }) => [level, msg, context])).toEqual([
      ['info', 'started', 'Bootstrap'],
      ['warn', 'careful', 'ClickWriter'],
      ['debug', 'detail', 'LeanRedirect'],
      ['trace', 'more', 'LeanRedirect'],
      ['fatal', 'gone', 'Main'],
    ]);
  });

  it('keeps an error call’s stack apart from its context', () => {
    const { logger, lines } = captured();
    logger.error('failed', 'Error: failed\n    at somewhere (file.js:1:1)', 'Filter');
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'failed', context: 'Filter' });
    expect(lines[0].stack).toContain('at somewhere');
  });

  it('logs an Error as err, with its message, and an object message as fields', () => {
    const { logger, lines } = captured();
    logger.error(new Error('boom'), undefined, 'Filter');
    logger.warn({ msg: 'Database unavailable', req: { id: 'r-1' } }, 'Filter');
    expect(lines[0]).toMatchObject({
      msg: 'boom',
      context: 'Filter',
      err: { message: 'boom', type: 'Error' },
    });
    expect(lines[1]).toMatchObject({ msg: 'Database unavailable', req: { id: 'r-1' }, context: 'Filter' });
  });

  it('writes nothing below the configured level', () => {
    const { logger, lines } = captured('warn');
    logger.log('quiet');
    logger.debug('quieter');
    logger.warn('heard');
    expect(lines.map((line) => line.msg)).toEqual(['heard']);
  });
});

describe('requestFields', () => {
  it('names a request by id, method and path, never its query', () => {
    const request = { id: 'abc', method: 'GET', url: '/api/v1/links?search=s3cr3t' };
    expect(requestFields(request as never)).toEqual({ id: 'abc', method: 'GET', path: '/api/v1/links' });
  });
});

describe('HttpExceptionFilter with AppLogger', () => {
  it('logs an unexpected error with the id, method and path of the request that met it', () => {
    const { logger, lines } = captured();
    Logger.overrideLogger(logger);
    try {
      const response = { headersSent: false, status: () => response, json: () => response };
      const request = { id: 'req-42', method: 'POST', url: '/api/v1/links?x=1' };
      const host = {
        switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }),
      } as unknown as ArgumentsHost;
      new HttpExceptionFilter().catch(new Error('unexpected'), host);
    } finally {
      Logger.overrideLogger(false);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: 'unexpected',
      context: 'HttpExceptionFilter',
      req: { id: 'req-42', method: 'POST', path: '/api/v1/links' },
    });
  });
});

function level(url: string, statusCode: number, error?: Error) {
  return requestLogLevel({ url } as IncomingMessage, { statusCode } as ServerResponse, error);
}

describe('requestLogLevel', () => {
  it.each([
    ['/unknown-alias', 404],
    ['/disabled', 404],
    ['/expired', 410],
    ['/protected/password', 403],
    ['/protected/password', 429],
    ['/private/stats', 403],
    ['/a/b?x=1', 404],
    ['/very-long?q=1', 414],
    ['/apiary', 404],
  ])('logs a visitor’s %s answered %i at info', (url, status) => {
    expect(level(url, status)).toBe('info');
  });

  it.each([
    ['/api/v1/links', 401],
    ['/api/v1/links/9', 404],
    ['/api/v1/spaces?x=1', 422],
    ['/api', 404],
  ])('keeps an API client’s %s answered %i at warn', (url, status) => {
    expect(level(url, status)).toBe('warn');
  });

  it('logs 5xx and failed requests as errors, whoever made them, and success at info', () => {
    expect(level('/some-alias', 503)).toBe('error');
    expect(level('/api/v1/links', 500)).toBe('error');
    expect(level('/some-alias', 200, new Error('socket hang up'))).toBe('error');
    expect(level('/some-alias', 302)).toBe('info');
    expect(level('/api/v1/links', 201)).toBe('info');
  });
});

describe('requestLogger', () => {
  /** A node:http server behind the middleware that answers each path's status, its log's lines kept, parsed. */
  async function serving(level: LogLevel, statusOf: (path: string) => number) {
    const lines: Record<string, unknown>[] = [];
    const log = createLog(
      { logLevel: level },
      { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const middleware = requestLogger(log);
    const server = createServer((request, response) =>
      middleware(request, response, () => {
        const path = (request.url ?? '').split('?')[0];
        if (path === '/drop') {
          request.socket.destroy();
          return;
        }
        response.statusCode = statusOf(path);
        response.end('answer');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const ask = (path: string, headers: Record<string, string> = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, { headers });
    const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    return { lines, ask, close };
  }

  /** The log is written as the answer ends, which the client may see first. */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('logs a line an answer: request, status and time, never the query or the Authorization header', async () => {
    const { lines, ask, close } = await serving('info', () => 200);
    try {
      const answer = await ask('/api/v1/links?search=secret', { Authorization: 'Bearer key-text' });
      await settled();
      expect(lines).toHaveLength(1);
      const id = answer.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines[0]).toMatchObject({
        level: 'info',
        msg: 'request completed',
        req: { id, method: 'GET', path: '/api/v1/links' },
        res: { statusCode: 200 },
      });
      expect(typeof lines[0].responseTime).toBe('number');
      expect(Object.keys(lines[0])).toEqual([
        'level',
        'time',
        'pid',
        'hostname',
        'req',
        'res',
        'responseTime',
        'msg',
      ]);
      expect(JSON.stringify(lines)).not.toMatch(/secret|key-text/);
    } finally {
      await close();
    }
  });

  it('keeps a sane X-Request-Id and replaces one that is not', async () => {
    const { lines, ask, close } = await serving('info', () => 204);
    try {
      const kept = await ask('/a', { 'X-Request-Id': 'proxy-42' });
      const replaced = await ask('/b', { 'X-Request-Id': 'no spaces allowed' });
      await settled();
      expect(kept.headers.get('x-request-id')).toBe('proxy-42');
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(lines.map((line) => (line.req as { id: string }).id)).toEqual([
        'proxy-42',
        replaced.headers.get('x-request-id'),
      ]);
    } finally {
      await close();
    }
  });

  it('at warn, writes nothing for a 2xx or a visitor’s 4xx, a warning for an API 4xx, an error for a 5xx', async () => {
    const statuses: Record<string, number> = {
      '/ok': 200,
      '/missing': 404,
      '/api/v1/links/9': 404,
      '/boom': 503,
    };
    const { lines, ask, close } = await serving('warn', (path) => statuses[path]);
    try {
      for (const path of Object.keys(statuses)) await ask(path);
      await settled();
      expect(lines.map(({ level, msg, req }) => [level, msg, (req as { path: string }).path])).toEqual([
        ['warn', 'request completed', '/api/v1/links/9'],
        ['error', 'request errored', '/boom'],
      ]);
      expect(lines[1].err).toMatchObject({ message: 'failed with status code 503' });
    } finally {
      await close();
    }
  });

  it('logs a request whose connection dropped before its answer, once', async () => {
    const { lines, ask, close } = await serving('info', () => 200);
    try {
      await expect(ask('/drop')).rejects.toThrow();
      await settled();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'info', req: { path: '/drop' } });
    } finally {
      await close();
    }
  });
});
