import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestLogLevel } from './logger';

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
