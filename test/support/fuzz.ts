import fc from 'fast-check';
import { request as httpRequest, type Agent } from 'node:http';
import type { NestRoute } from './routes';

/**
 * Generated requests for property-based tests: hostile form and JSON bodies, query strings, path segments and
 * headers, sent over a real socket, and the properties every answer must have.
 */

export interface FuzzRequest {
  /** The route it was made for, `GET /api/v1/links/:id`, for the report. */
  route: string;
  method: string;
  /** Already encoded, as it goes on the request line: it may hold malformed percent-encoding on purpose. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

/** Ids and aliases the generator draws from besides random ones: the resources each route may name. */
export interface FuzzTargets {
  /** Ids by the path segment their routes start with (`links`, `spaces`, ...; `stats` takes link ids). */
  ids: Record<string, number[]>;
  aliases: string[];
  /** Authorization values: a live key, another account's, a revoked one... */
  authorizations: string[];
  /** Host headers: the default domain, a custom domain... */
  hosts: string[];
}

/** Values that broke services before: numbers at the edges, injections, encodings, dates that do not exist. */
const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '01',
  '1.5',
  '1e3',
  '0x10',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '99999999999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  "' OR '1'='1",
  '1; DROP TABLE links; --',
  '$1',
  '\\',
  '"',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${7*7}',
  '../../etc/passwd',
  '%00',
  '\u0000',
  'a\u0000b',
  '\uFFFF',
  '\uFEFF',
  '\uD800',
  '\uDC00x',
  '\u202Eevil',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '️️️',
  '\r\n',
  'https://example.com/',
  'https://example.com/' + 'a'.repeat(2100),
  'http://127.0.0.1/',
  'http://[::1]:80/',
  'http://169.254.169.254/latest/meta-data/',
  'https://xn--80ak6aa92e.com/',
  'https://exa mple.com/',
  'https:example.com',
  '//example.com',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,x',
  'file:///etc/passwd',
  'ftp://example.com/',
  'mailto:a@example.com',
  '2026-01-01 10:00',
  '2026-02-30 10:00',
  '2026-13-01 10:00',
  '9999-12-31 23:59',
  '0000-01-01 00:00',
  '2026-01-01T10:00:00+14:00',
  '2026-01-01T10:00:00Z',
  '2026-01-01',
  '2026-01-01 24:00',
  'US',
  'us',
  'EU',
  'iOS',
  'Chrome',
  'mobile',
  'de',
  'rotations',
  'countries',
  'click',
  'clicks',
  'country',
  'referrer',
  'asc',
  'desc',
  'id',
  'name',
  'facebook',
  'GTM-ABC1234',
  'G-ABC123DEF4',
  '123456789012345',
];

/** Any string: grapheme or raw code units (lone surrogates, control characters), short or empty. */
const anyText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Now and then a value far over every limit, but under the body limit as a rule. */
const hugeText = fc
  .tuple(fc.integer({ min: 256, max: 70_000 }), fc.constantFrom('a', '9', 'é', '%', '\u0000', '€', ' '))
  .map(([length, character]) => character.repeat(length));

export const textValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 4, arbitrary: anyText },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 2_000 }).map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: hugeText },
);

/** Percent-encodes every byte that is not unreserved; lone surrogates become U+FFFD, as a browser sends them. */
export function encodeComponent(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const character = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(character)
      ? character
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Pieces of a URL or form that are wrong on purpose: broken escapes, overlong UTF-8, separators. */
const RAW_JUNK = [
  '%',
  '%%',
  '%zz',
  '%4',
  '%E0%A4%A',
  '%C0%AF',
  '%C0%80',
  '%ED%A0%80',
  '%FF%FE',
  '%uD800',
  '%00',
  '%0A',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  ';',
  '+',
  '&&',
  '==',
  '[',
  ']',
  '[]',
  '][',
  '[[]]',
  '~',
  '*',
];

/** One encoded piece: a value encoded as a client should, or as a careless one does. */
const encodedPiece = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: value.map(encodeComponent) },
    { weight: 1, arbitrary: value.map((text) => encodeComponent(text).replace(/%20/g, '+')) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_JUNK) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value.map(encodeComponent), fc.constantFrom(...RAW_JUNK))
        .map(([text, junk]) => `${text}${junk}`),
    },
  );

/** A form or query key: a known field, with bracket notation (arrays, indexes, nesting) or without. */
function formKey(fields: string[]): fc.Arbitrary<string> {
  const field = fields.length === 0 ? fc.string({ maxLength: 10 }) : fc.constantFrom(...fields);
  const index = fc.oneof(
    fc.integer({ min: 0, max: 120 }).map(String),
    fc.constantFrom('', '-1', '999999999', 'key', 'value', '__proto__', 'constructor', 'a'),
  );
  return fc.oneof(
    { weight: 6, arbitrary: field },
    { weight: 2, arbitrary: field.map((name) => `${name}[]`) },
    { weight: 2, arbitrary: fc.tuple(field, index).map(([name, at]) => `${name}[${at}]`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(field, index, fc.constantFrom('key', 'value', '', 'x'))
        .map(([name, at, sub]) => `${name}[${at}][${sub}]`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(field, fc.integer({ min: 2, max: 60 }))
        .map(([name, depth]) => `${name}${'[a]'.repeat(depth)}`),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
}

/** `key=value&...` with fields the route declares, arrays where scalars belong, repeated keys and junk. */
export function formText(fields: string[]): fc.Arbitrary<string> {
  const pair = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(encodedPiece(formKey(fields)), encodedPiece(textValue))
        .map(([k, v]) => `${k}=${v}`),
    },
    { weight: 1, arbitrary: encodedPiece(formKey(fields)) },
    { weight: 1, arbitrary: fc.constantFrom('=', '&', '=x', '[]=1', 'a[b]c=1', 'a]=1', '[=1') },
  );
  return fc.oneof(
    { weight: 10, arbitrary: fc.array(pair, { maxLength: 14 }).map((pairs) => pairs.join('&')) },
    // Many fields: past the parser's limit of 1000 parameters.
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...(fields.length === 0 ? ['f'] : fields)),
          fc.integer({ min: 100, max: 1500 }),
        )
        .map(([name, count]) => Array.from({ length: count }, (_, at) => `${name}[${at}]=${at}`).join('&')),
    },
  );
}

/** JSON values: scalars where arrays belong and the other way round, objects where strings belong, targets. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: textValue },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }) },
    {
      weight: 2,
      arbitrary: fc.array(fc.record({ key: textValue, value: textValue }, { requiredKeys: [] }), {
        maxLength: 5,
      }),
    },
  ),
})).value;

/** A JSON text: an object of the route's fields, any JSON at all, deep nesting, or broken JSON. */
export function jsonText(fields: string[]): fc.Arbitrary<string> {
  const key =
    fields.length === 0
      ? fc.string({ maxLength: 10 })
      : fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 }));
  const object = fc.dictionary(key, jsonValue, { maxKeys: 8 }).map((value) => JSON.stringify(value));
  return fc.oneof(
    { weight: 8, arbitrary: object },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 200 }), fc.constantFrom('[', '{"a":'))
        .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`),
    },
    { weight: 1, arbitrary: object.map((text) => text.slice(0, Math.max(1, text.length - 2))) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '[1,]',
        '{"a":1,}',
        'nul',
        '"\\ud800"',
        '{"__proto__":{"x":1}}',
        '\u0000',
      ),
    },
  );
}

/** A body of any kind: form, JSON, raw bytes, or just over the 1 MB limit. */
export function body(fields: string[]): fc.Arbitrary<{ contentType: string | null; bytes: Buffer }> {
  const form = 'application/x-www-form-urlencoded';
  const json = 'application/json';
  const contentType = (usual: string) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant<string | null>(usual) },
      {
        weight: 2,
        arbitrary: fc.constantFrom<string | null>(
          null,
          `${usual}; charset=utf-8`,
          `${usual}; charset=latin1`,
          `${usual}; charset=utf-16`,
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json-patch+json',
          '*/*',
          ';;;',
        ),
      },
    );
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .tuple(contentType(form), formText(fields))
        .map(([type, text]) => ({ contentType: type, bytes: Buffer.from(text) })),
    },
    {
      weight: 8,
      arbitrary: fc
        .tuple(contentType(json), jsonText(fields))
        .map(([type, text]) => ({ contentType: type, bytes: Buffer.from(text) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(form, json), fc.uint8Array({ maxLength: 200 }))
        .map(([type, bytes]) => ({ contentType: type, bytes: Buffer.from(bytes) })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(form, json).map((type) => ({
        contentType: type,
        bytes: Buffer.from(
          type === json ? `{"name":"${'a'.repeat(1_100_000)}"}` : `name=${'a'.repeat(1_100_000)}`,
        ),
      })),
    },
  );
}

/**
 * A header value Node will send: anything but control characters, at most 500 bytes, so that the request line and
 * a dozen headers stay under Node's 16 KB limit (past it Node itself answers 431 before the service sees anything).
 */
function headerText(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '')
    .slice(0, 500);
}

const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'curl/8.4.0',
  '',
];

/** Headers a client may send, sane or not; each one present or absent. */
export function headers(targets: FuzzTargets, route: NestRoute): fc.Arbitrary<Record<string, string>> {
  const junk = fc.oneof(textValue, anyText).map(headerText);
  const api = route.path.startsWith('/api/');
  return fc
    .record(
      {
        authorization: fc.oneof(
          { weight: api ? 12 : 1, arbitrary: fc.constantFrom(...targets.authorizations) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              'Bearer',
              'Bearer ',
              'bearer x',
              'Basic YTpi',
              'Bearer lsk_' + 'A'.repeat(43),
            ),
          },
          { weight: 1, arbitrary: junk.map((text) => `Bearer ${text}`) },
        ),
        accept: fc.oneof(
          fc.constantFrom('application/json', 'text/html', '*/*', 'text/html;q=0.1, application/json'),
          junk,
        ),
        'user-agent': fc.oneof(fc.constantFrom(...USER_AGENTS), junk),
        'accept-language': fc.oneof(fc.constantFrom('de-DE,de;q=0.9', 'en', '*', 'zz-ZZ', ';q=x'), junk),
        'x-forwarded-for': fc.oneof(
          fc.constantFrom(
            '8.8.8.8',
            '81.2.69.142',
            '::1',
            '2001:db8::1',
            '::ffff:8.8.8.8',
            '999.1.1.1',
            'unknown',
            '1.1.1.1, 2.2.2.2',
            '[::1]:80',
          ),
          fc.ipV4(),
          fc.ipV6(),
          junk,
        ),
        forwarded: fc.oneof(fc.constantFrom('for=8.8.8.8;proto=https', 'for="[2001:db8::1]"'), junk),
        host: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...targets.hosts) },
          { weight: 1, arbitrary: junk.filter((text) => text !== '') },
        ),
        referer: fc.oneof(
          fc.constantFrom('https://news.example/a?b=c', 'android-app://com.x', 'not a url'),
          junk,
        ),
        'x-request-id': junk,
        cookie: junk,
        'if-none-match': junk,
        range: fc.constantFrom('bytes=0-10', 'bytes=abc', 'bytes=10-0'),
      },
      { requiredKeys: [] },
    )
    .map(
      (record) =>
        Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<
          string,
          string
        >,
    );
}

/** A path segment: one of the targets, or a string of any kind, encoded well or badly. */
function segment(known: (string | number)[]): fc.Arbitrary<string> {
  const value =
    known.length === 0
      ? textValue
      : fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...known.map(String)) },
          { weight: 2, arbitrary: textValue },
        );
  return encodedPiece(value).map((text) => (text === '' ? '%20' : text));
}

/** The path of a route with its parameters filled in, and a query string. */
export function routePath(route: NestRoute, targets: FuzzTargets): fc.Arbitrary<string> {
  const kind = route.path.split('/')[3] ?? '';
  const parts = route.path
    .split('/')
    .slice(1)
    .map((part): fc.Arbitrary<string> => {
      if (part === ':id' || part === ':linkId') return segment(targets.ids[kind] ?? []);
      if (part === ':alias') return segment(targets.aliases);
      if (part === '*path')
        return fc.array(segment([]), { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join('/'));
      return fc.constant(part.replace(/\\/g, ''));
    });
  const query = fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    {
      weight: 5,
      arbitrary: formText([...route.queryFields, 'q', 'utm_source']).map((text) =>
        text === '' ? '' : `?${text}`,
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?',
        '??',
        '?&',
        '?=',
        '?%',
        '?a=%zz',
        '?page=2&page=3',
        '?per_page[]=10',
        '?sort[$ne]=asc',
      ),
    },
  );
  return fc
    .tuple(fc.tuple(...parts), query)
    .map(([pieces, search]) => `/${pieces.join('/')}${search}`.slice(0, 6_000));
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A request for `route`: usually its own method, now and then another; a body on any method now and then. */
export function fuzzRequest(route: NestRoute, targets: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const writes = ['POST', 'PUT', 'PATCH'].includes(route.method);
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      path: routePath(route, targets),
      headers: headers(targets, route),
      body: fc.option(body([...route.bodyFields, 'password', 'q', 'ref', 'token']), { freq: writes ? 1 : 3 }),
    })
    .map(({ method, path, headers: sent, body: content }) => {
      const request: FuzzRequest = { route: route.route, method, path, headers: { ...sent } };
      // fast-check prints a failing request this way: short enough to read; the seed replays it whole.
      Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request) });
      if (content !== null && method !== 'HEAD') {
        request.body = content.bytes;
        if (content.contentType !== null) request.headers['content-type'] = content.contentType;
      }
      return request;
    });
}

function clip(text: string, length = 160): string {
  return text.length <= length ? text : `${text.slice(0, length)}... (${text.length} characters)`;
}

/** A request in a line or two, long values cut. */
export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 60)}`)
    .join(', ');
  const body =
    request.body === undefined ? '' : ` body ${clip(JSON.stringify(request.body.toString('utf8')))}`;
  return `${request.method} ${clip(request.path)} [${headers}]${body}`;
}

/** Sends a request; an answer that takes longer than `timeoutMs` is given up and reported as none. */
export function send(
  origin: { port: number },
  agent: Agent,
  request: FuzzRequest,
  timeoutMs: number,
): Promise<FuzzAnswer | { error: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let outgoing;
    try {
      outgoing = httpRequest({
        host: '127.0.0.1',
        port: origin.port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          ...(request.body === undefined ? {} : { 'content-length': String(request.body.length) }),
        },
        agent,
        setHost: request.headers.host === undefined,
      });
    } catch (error) {
      // The client refused to send it (an invalid header): not the service's concern.
      resolve({ error: `not sent: ${(error as Error).message}`, ms: 0 });
      return;
    }
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    outgoing.on('response', (response) => {
      // An event stream never ends: its answer is its head and its first frame, and then the client goes.
      if (String(response.headers['content-type']).startsWith('text/event-stream')) {
        // A HEAD request's stream, or one closed at once, ends without a frame: its head is the answer then.
        const settle = (body: string) => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            ms: performance.now() - started,
          });
          outgoing.destroy();
        };
        response.once('data', (chunk: Buffer) => settle(chunk.toString('utf8')));
        response.once('end', () => settle(''));
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        });
      });
      response.on('error', (error: Error) => {
        clearTimeout(timer);
        resolve({ error: error.message, ms: performance.now() - started });
      });
    });
    outgoing.on('error', (error: Error) => {
      clearTimeout(timer);
      resolve({ error: error.message, ms: performance.now() - started });
    });
    outgoing.end(request.body);
  });
}

/** What must never reach a client: each a name and a pattern. */
const LEAKS: [string, RegExp, 'errors' | 'all'][] = [
  ['a stack trace', /\bat [\w.<>$[\] ]+ \([^)\n]*:\d+:\d+\)|\bat (?:\/|file:|node:)[^\s]*:\d+:\d+/, 'all'],
  ['a source path', /(?:\/|\\)(?:src|dist|node_modules)(?:\/|\\)[\w./@-]+\.(?:ts|js)\b/, 'all'],
  [
    'a database error',
    /QueryFailedError|EntityNotFound|duplicate key value|violates [\w-]+ constraint|syntax error at or near|invalid input syntax|SQLSTATE|ECONNREFUSED|out of range for type/,
    'all',
  ],
  [
    'SQL',
    /\b(?:SELECT\s[\s\S]{1,200}?\sFROM\s|INSERT\s+INTO\s|UPDATE\s+"?\w+"?\s+SET\s|DELETE\s+FROM\s)/i,
    'errors',
  ],
  [
    'an internal name',
    /\b(?:typeorm|class-validator|class-transformer|nestjs|pg-protocol|body-parser|link_counters|link_pixels|api_keys)\b|\b[A-Z][A-Za-z]*(?:Service|Controller|Exception|Error|Dto|Entity|Pipe|Guard|Module|Repository|Filter)\b/i,
    'errors',
  ],
];

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The request as text, raw and decoded, so that a value it sent and that comes back is not taken for a leak. */
function requestText(request: FuzzRequest): string {
  const body = request.body?.toString('utf8') ?? '';
  return [
    request.path,
    safeDecode(request.path),
    ...Object.values(request.headers),
    body,
    safeDecode(body),
  ].join('\n');
}

/** `{"message": ..., "status": N}`: a string message, or for 422 the fields with their messages. */
function isEnvelope(body: unknown, status: number): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { message, status: inBody, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || inBody !== status) return false;
  if (status === 422) {
    return (
      typeof message === 'object' &&
      message !== null &&
      Object.keys(message).length > 0 &&
      Object.values(message).every(
        (messages) =>
          Array.isArray(messages) &&
          messages.length > 0 &&
          messages.every((text) => typeof text === 'string' && text !== ''),
      )
    );
  }
  return typeof message === 'string' && message !== '';
}

/** Whether a path is one of the visitor routes, which may answer with an HTML page instead of JSON. */
function isVisitorPath(path: string): boolean {
  const first = path.split(/[/?]/)[1] ?? '';
  return first !== 'api' && first !== 'health';
}

/** Every way the answer breaks the properties; empty when it holds them all. */
export function violations(request: FuzzRequest, answer: FuzzAnswer, budgetMs: number): string[] {
  const found: string[] = [];
  if (answer.status >= 500) found.push(`answered ${answer.status}`);
  if (answer.ms > budgetMs) found.push(`answered after ${Math.round(answer.ms)} ms`);
  const sent = requestText(request);
  for (const [name, pattern, scope] of LEAKS) {
    if (scope === 'errors' && answer.status < 400) continue;
    const match = pattern.exec(answer.body);
    if (match !== null && !sent.toLowerCase().includes(match[0].toLowerCase())) {
      found.push(`${name} in the body: ${JSON.stringify(match[0])}`);
    }
  }
  if (answer.status >= 400 && answer.status < 500 && request.method !== 'HEAD') {
    const type = String(answer.headers['content-type'] ?? '');
    let envelope = false;
    if (type.startsWith('application/json')) {
      try {
        envelope = isEnvelope(JSON.parse(answer.body), answer.status);
      } catch {
        envelope = false;
      }
    }
    const page =
      isVisitorPath(request.path) &&
      type.startsWith('text/html') &&
      /<title>[^<]+<\/title>/.test(answer.body);
    if (!envelope && !page)
      found.push(`a ${answer.status} outside the envelope: ${type} ${answer.body.slice(0, 200)}`);
    if (answer.status === 429 && answer.headers['retry-after'] === undefined)
      found.push('a 429 without Retry-After');
  }
  return found;
}
