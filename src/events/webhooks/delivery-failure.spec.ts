import {
  DeliveryFailure,
  DeliveryTimeout,
  EXCERPT_CHARS,
  failureReason,
  resolutionReason,
  responseExcerpt,
  statusReason,
  timeoutReason,
} from './delivery-failure';

/** An error as Node's sockets make them: a code, and a message that names the address. */
function systemError(code: string, message = `connect ${code} 10.1.2.3:443`): Error {
  return Object.assign(new Error(message), { code });
}

describe('timeoutReason', () => {
  it.each([
    [10_000, 'timeout after 10 s'],
    [300, 'timeout after 0.3 s'],
    [2500, 'timeout after 2.5 s'],
  ])('reads %i ms as %j', (ms, reason) => {
    expect(timeoutReason(ms)).toBe(reason);
  });
});

describe('failureReason', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ECONNRESET', 'connection reset'],
    ['EPIPE', 'connection reset'],
    ['ETIMEDOUT', 'connection timed out'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ENETUNREACH', 'network unreachable'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS error: ERR_TLS_CERT_ALTNAME_INVALID'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS error: DEPTH_ZERO_SELF_SIGNED_CERT'],
    ['CERT_HAS_EXPIRED', 'TLS error: CERT_HAS_EXPIRED'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS error: ERR_SSL_WRONG_VERSION_NUMBER'],
    ['HPE_INVALID_CONSTANT', 'invalid HTTP response'],
    ['HPE_HEADER_OVERFLOW', 'invalid HTTP response'],
    ['ERR_SOMETHING_NEW', 'request failed: ERR_SOMETHING_NEW'],
  ])('names %s as %j, never with the address in its message', (code, reason) => {
    expect(failureReason(systemError(code), 10_000)).toBe(reason);
  });

  it('gives the deadline for a timeout and the reason a failure carries', () => {
    expect(failureReason(new DeliveryTimeout(), 10_000)).toBe('timeout after 10 s');
    expect(failureReason(new DeliveryFailure('address not allowed'), 10_000)).toBe('address not allowed');
  });

  it.each([
    ['an error without a code', new Error('whsec_c2VjcmV0 at https://user:pw@hooks.example/')],
    ['a code that is really a message', systemError('see https://user:pw@hooks.example/')],
    ['something thrown that is not an error', 'whsec_c2VjcmV0'],
    ['null', null],
  ])('says only "request failed" for %s', (_label, error) => {
    expect(failureReason(error, 10_000)).toBe('request failed');
  });
});

describe('resolutionReason', () => {
  it.each([
    ['ENOTFOUND', 'host not found'],
    ['ENODATA', 'host not found'],
    ['EAI_AGAIN', 'name resolution failed'],
  ])('names %s as %j', (code, reason) => {
    expect(resolutionReason(systemError(code, `getaddrinfo ${code} internal.example`))).toBe(reason);
  });
});

describe('statusReason', () => {
  it.each([200, 201, 202, 204, 299])('is null for %i: delivered', (status) => {
    expect(statusReason(status, 'ignored')).toBeNull();
  });

  it.each([301, 302, 303, 307, 308])('says %i was a redirect, not followed', (status) => {
    expect(statusReason(status, 'Moved')).toBe(`HTTP ${status} (redirect not followed)`);
  });

  it('gives the status of a 4xx or 5xx, with the excerpt when there is one', () => {
    expect(statusReason(500, null)).toBe('HTTP 500');
    expect(statusReason(401, 'invalid signature')).toBe('HTTP 401: invalid signature');
    expect(statusReason(199, null)).toBe('HTTP 199');
  });
});

describe('responseExcerpt', () => {
  const text = (body: string, type: string | undefined = 'text/plain', hidden: string[] = []) =>
    responseExcerpt(Buffer.from(body), type, hidden);

  it('folds the answer to one trimmed line', () => {
    expect(text('  invalid\r\n\tsignature \n')).toBe('invalid signature');
  });

  it.each([
    ['text/plain; charset=utf-8'],
    ['text/html'],
    ['application/json'],
    ['application/problem+json'],
    ['application/xml'],
    [undefined],
  ])('reads a textual answer (%s)', (type) => {
    expect(text('{"error":"unknown event"}', type)).toBe('{"error":"unknown event"}');
  });

  it.each([['application/octet-stream'], ['image/png'], ['application/jsonx']])(
    'shows nothing of a %s answer',
    (type) => {
      expect(text('readable all the same', type)).toBeNull();
    },
  );

  it(`keeps at most ${EXCERPT_CHARS} characters, counted as code points`, () => {
    expect(text('x'.repeat(EXCERPT_CHARS))).toBe('x'.repeat(EXCERPT_CHARS));
    expect(text('😀'.repeat(EXCERPT_CHARS + 50))).toBe(`${'😀'.repeat(EXCERPT_CHARS)}…`);
  });

  it('turns control, format and line-separator characters into spaces', () => {
    expect(text('a\u0000b\u001bc\u202ed\u2028e\ufefff')).toBe('a b c d e f');
  });

  it('replaces every hidden value, wherever the answer shows it, before cutting', () => {
    const signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    const echoed = `bad signature ${signature}; expected one of ${signature.slice(3)}`;

    const excerpt = text(echoed, 'text/plain', [signature, signature.slice(3)]);

    expect(excerpt).toBe('bad signature [redacted]; expected one of [redacted]');
  });

  it('is null for an empty or blank answer', () => {
    expect(text('')).toBeNull();
    expect(text(' \r\n\t ')).toBeNull();
  });
});
