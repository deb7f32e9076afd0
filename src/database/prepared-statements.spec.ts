import { neverSent } from './prepared-statements';

describe('neverSent', () => {
  const failure = (fields: { message: string; code?: string; syscall?: string }) =>
    Object.assign(new Error(fields.message), fields);

  it.each([
    [
      'a write into a reset connection',
      failure({ code: 'ECONNRESET', syscall: 'write', message: 'write ECONNRESET' }),
    ],
    ['a write into a closed pipe', failure({ code: 'EPIPE', syscall: 'write', message: 'write EPIPE' })],
    [
      'a client that saw its connection break',
      failure({ message: 'Client has encountered a connection error and is not queryable' }),
    ],
  ])('says %s never reached the server', (_label, error) => {
    expect(neverSent(error)).toBe(true);
  });

  it.each([
    [
      'a read that was reset while the statement ran',
      failure({ code: 'ECONNRESET', syscall: 'read', message: 'read ECONNRESET' }),
    ],
    [
      'a connection that ended while the statement ran',
      failure({ message: 'Connection terminated unexpectedly' }),
    ],
    ['an error of the statement', failure({ code: '23505', message: 'duplicate key value' })],
  ])('leaves %s alone: it may have taken effect', (_label, error) => {
    expect(neverSent(error)).toBe(false);
  });
});
