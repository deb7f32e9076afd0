import { mediaTypeOf, sendsBody } from './media-type.interceptor';

describe('sendsBody', () => {
  it.each([
    [{}, false],
    [{ 'content-length': '0' }, false],
    [{ 'content-length': '0', 'content-type': 'application/xml' }, false],
    [{ 'content-length': '12' }, true],
    [{ 'transfer-encoding': 'chunked' }, true],
  ])('reads %j as %s', (headers, expected) => {
    expect(sendsBody({ headers })).toBe(expected);
  });
});

describe('mediaTypeOf', () => {
  it.each([
    [{}, ''],
    [{ 'content-type': 'application/json' }, 'application/json'],
    [{ 'content-type': 'Application/JSON; charset=utf-8' }, 'application/json'],
    [{ 'content-type': ' text/csv ;header=present' }, 'text/csv'],
  ])('reads %j as %s', (headers, expected) => {
    expect(mediaTypeOf({ headers })).toBe(expected);
  });
});
