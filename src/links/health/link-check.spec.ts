import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import { isPublicAddress, type AddressPolicy } from '../../common/outbound-address';
import { checkLink, DEFAULT_LINK_CHECK_OPTIONS, type LinkCheckOptions } from './link-check';
import { closeServer, listenOnLoopback, scriptedServer } from '../../../test/support/http-server';

/** Short enough for tests; the bounds below are generous, to prove the deadline, not to measure speed. */
const SHORT_TIMEOUT_MS = 300;
const DEADLINE_SLACK_MS = 1500;

/** A resolver that gives the test's loopback address for every `*.test` name and fails for any other. */
function resolveTestNames(host: string): Promise<string[]> {
  if (host.endsWith('.test')) return Promise.resolve(['127.0.0.1']);
  return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
}

/** Options that may reach the test's servers on 127.0.0.1, by `*.test` names or the address, and nothing else. */
function options(overrides: Partial<LinkCheckOptions> = {}): LinkCheckOptions {
  return {
    ...DEFAULT_LINK_CHECK_OPTIONS,
    resolve: resolveTestNames,
    allowAddress: (address) => address === '127.0.0.1',
    timeoutMs: 2000,
    ...overrides,
  };
}

/**
 * The default policy (isPublicAddress), save that `public.test` stands in for a public site, played by the test's
 * server. Every other name resolves to that same loopback server, which the policy must refuse.
 */
function publicStandInPolicy(judged: string[]): AddressPolicy {
  let standInResolved = false;
  return {
    resolve: (host) => {
      standInResolved = host === 'public.test';
      return Promise.resolve(['127.0.0.1']);
    },
    allowAddress: (address) => {
      judged.push(address);
      const standIn = standInResolved;
      standInResolved = false;
      return standIn || isPublicAddress(address);
    },
  };
}

/** `promise`'s outcome, or `fallback` if it takes longer than `ms`: a test fails rather than hangs. */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let guard: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((resolve) => {
      guard = setTimeout(() => resolve(fallback), ms);
    }),
  ]).finally(() => clearTimeout(guard));
}

/**
 * Runs `check`, and says how long it took and how many of the timers set while it ran were still pending when it
 * returned: a check must leave none behind.
 */
/** Passes once `closed` resolves, within 2 s: the client gave the connection up rather than leaving it open. */
async function expectClosed(closed: Promise<void>): Promise<void> {
  await expect(
    within(
      closed.then(() => 'closed'),
      2000,
      'still open',
    ),
  ).resolves.toBe('closed');
}

/** Writes `chunk` to `stream` as fast as its reader takes it, forever, until it closes; gives each write's size. */
function flood(stream: Writable, chunk: Buffer | string, wrote: (bytes: number) => void): void {
  const pump = () => {
    while (!stream.destroyed) {
      wrote(chunk.length);
      if (!stream.write(chunk)) return;
    }
  };
  stream.on('drain', pump);
  pump();
}

async function timed<T>(
  check: () => Promise<T>,
): Promise<{ result: T; elapsedMs: number; timersLeft: number }> {
  const pending = new Set<NodeJS.Timeout>();
  const realSetTimeout = global.setTimeout;
  const realClearTimeout = global.clearTimeout;
  const setSpy = jest.spyOn(global, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const timer = realSetTimeout(() => {
      pending.delete(timer);
      callback(...args);
    }, ms);
    pending.add(timer);
    return timer;
  }) as unknown as typeof setTimeout);
  const clearSpy = jest.spyOn(global, 'clearTimeout').mockImplementation((timer) => {
    pending.delete(timer as NodeJS.Timeout);
    realClearTimeout(timer);
  });
  const started = Date.now();
  try {
    const result = await check();
    return { result, elapsedMs: Date.now() - started, timersLeft: pending.size };
  } finally {
    setSpy.mockRestore();
    clearSpy.mockRestore();
  }
}

describe('checkLink over HTTP', () => {
  const served = scriptedServer({ closeEachTest: true });

  function answer(status: number, headers: Record<string, string> = {}) {
    return (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(status, headers);
      response.end();
    };
  }

  /** `/hop/N` redirects to `/hop/N-1`; `/hop/0` answers 200. */
  function redirectChain(request: IncomingMessage, response: ServerResponse) {
    const left = Number((request.url ?? '').split('/')[2]);
    if (left > 0) answer(302, { location: `/hop/${left - 1}` })(request, response);
    else answer(200)(request, response);
  }

  describe('by the final status', () => {
    it.each([200, 204, 401, 403, 429, 400, 418])('is ok with %i, asked with HEAD only', async (status) => {
      served.handler = answer(status);

      await expect(checkLink(`http://site.test:${served.port}/page`, options())).resolves.toEqual({
        status: 'ok',
        httpStatus: status,
      });
      expect(served.requests).toEqual(['HEAD /page']);
    });

    it.each([404, 410, 500, 502, 503, 599])('is broken with %i', async (status) => {
      served.handler = answer(status);

      await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: status,
      });
    });

    it.each([300, 304])('is ok with a %i that names no Location', async (status) => {
      served.handler = answer(status);

      await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'ok',
        httpStatus: status,
      });
      expect(served.requests).toEqual(['HEAD /']);
    });

    it('checks an address written in the URL', async () => {
      served.handler = answer(200);

      await expect(checkLink(`http://127.0.0.1:${served.port}/`, options())).resolves.toEqual({
        status: 'ok',
        httpStatus: 200,
      });
    });

    it('sends the configured User-Agent', async () => {
      let userAgent: string | undefined;
      served.handler = (request, response) => {
        userAgent = request.headers['user-agent'];
        answer(200)(request, response);
      };

      await checkLink(`http://site.test:${served.port}/`, options({ userAgent: 'test-agent/1.0' }));

      expect(userAgent).toBe('test-agent/1.0');
    });
  });

  describe('when HEAD is refused', () => {
    it.each([405, 501])('asks with GET after a HEAD answered %i, and takes its answer', async (refusal) => {
      served.handler = (request, response) =>
        answer(request.method === 'HEAD' ? refusal : 200)(request, response);

      await expect(checkLink(`http://site.test:${served.port}/page`, options())).resolves.toEqual({
        status: 'ok',
        httpStatus: 200,
      });
      expect(served.requests).toEqual(['HEAD /page', 'GET /page']);
    });

    it('reports a GET that answers 404 as broken', async () => {
      served.handler = (request, response) =>
        answer(request.method === 'HEAD' ? 405 : 404)(request, response);

      await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: 404,
      });
    });

    it('follows a redirect the GET answers, with HEAD again on the next hop', async () => {
      served.handler = (request, response) => {
        if (request.url === '/old') {
          answer(request.method === 'HEAD' ? 405 : 301, { location: '/new' })(request, response);
        } else answer(200)(request, response);
      };

      await expect(checkLink(`http://site.test:${served.port}/old`, options())).resolves.toEqual({
        status: 'ok',
        httpStatus: 200,
      });
      expect(served.requests).toEqual(['HEAD /old', 'GET /old', 'HEAD /new']);
    });

    it('reads no endless body: the GET returns at its headers and the server sees the connection closed', async () => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let written = 0;
      let closed: Promise<void> = Promise.resolve();
      served.handler = (request, response) => {
        if (request.method === 'HEAD') {
          answer(405)(request, response);
          return;
        }
        closed = new Promise((resolve) => response.on('close', () => resolve()));
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        flood(response, chunk, (bytes) => (written += bytes));
      };

      const { result, elapsedMs } = await timed(() =>
        checkLink(`http://site.test:${served.port}/endless`, options({ timeoutMs: 5000 })),
      );

      // Had the body been waited for, the deadline would have made it broken.
      expect(result).toEqual({ status: 'ok', httpStatus: 200 });
      expect(elapsedMs).toBeLessThan(5000);
      expect(served.requests).toEqual(['HEAD /endless', 'GET /endless']);
      await expectClosed(closed);
      // No more than the sockets buffer on the way: an endless body that were read would be endless.
      expect(written).toBeLessThan(32 * 1024 * 1024);
    });
  });

  describe('following redirects', () => {
    it.each([
      ['follows a chain of maxRedirects (5) redirects to its answer', 5, { status: 'ok', httpStatus: 200 }],
      [
        'is broken, with the last redirect status, past maxRedirects',
        6,
        { status: 'broken', httpStatus: 302 },
      ],
    ] as const)('%s', async (_title, hops, result) => {
      served.handler = redirectChain;

      await expect(checkLink(`http://site.test:${served.port}/hop/${hops}`, options())).resolves.toEqual(
        result,
      );
      // Six requests either way: the first, then the five redirects followed.
      expect(served.requests).toEqual(Array.from({ length: 6 }, (_, index) => `HEAD /hop/${hops - index}`));
    });

    it('follows as many redirects as maxRedirects says', async () => {
      served.handler = redirectChain;

      await expect(
        checkLink(`http://site.test:${served.port}/hop/1`, options({ maxRedirects: 0 })),
      ).resolves.toEqual({
        status: 'broken',
        httpStatus: 302,
      });
      await expect(
        checkLink(`http://site.test:${served.port}/hop/2`, options({ maxRedirects: 2 })),
      ).resolves.toEqual({
        status: 'ok',
        httpStatus: 200,
      });
    });

    it.each([
      ['an absolute-path', '/a/b/start', '/elsewhere', '/elsewhere'],
      ['a path-relative', '/a/b/start', 'next', '/a/b/next'],
      ['a dot-segment', '/a/b/start', '../up', '/a/up'],
    ])('resolves %s Location against the current URL', async (_label, start, location, resolved) => {
      served.handler = (request, response) =>
        request.url === start ? answer(301, { location })(request, response) : answer(200)(request, response);

      await expect(checkLink(`http://site.test:${served.port}${start}`, options())).resolves.toEqual({
        status: 'ok',
        httpStatus: 200,
      });
      expect(served.requests).toEqual([`HEAD ${start}`, `HEAD ${resolved}`]);
    });

    it('follows a redirect to another host, resolved and checked by the policy', async () => {
      const resolved: string[] = [];
      served.handler = (request, response) =>
        request.headers.host === `one.test:${served.port}`
          ? answer(307, { location: `http://two.test:${served.port}/there` })(request, response)
          : answer(200)(request, response);

      await expect(
        checkLink(
          `http://one.test:${served.port}/`,
          options({
            resolve: (host) => {
              resolved.push(host);
              return resolveTestNames(host);
            },
          }),
        ),
      ).resolves.toEqual({ status: 'ok', httpStatus: 200 });
      expect(resolved).toEqual(['one.test', 'two.test']);
    });

    it('reports the final answer of the chain: broken when it is a 404', async () => {
      served.handler = (request, response) =>
        request.url === '/moved'
          ? answer(301, { location: '/gone' })(request, response)
          : answer(404)(request, response);

      await expect(checkLink(`http://site.test:${served.port}/moved`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: 404,
      });
    });

    it.each(['mailto:someone@example.com', 'tg://resolve?domain=x', 'ftp://files.test/a'])(
      'is ok with the redirect status, without following, for a redirect to %s',
      async (location) => {
        served.handler = answer(302, { location });

        await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
          status: 'ok',
          httpStatus: 302,
        });
        expect(served.requests).toEqual(['HEAD /']);
      },
    );

    it('is broken, with the redirect status, for a Location that is no URL', async () => {
      served.handler = answer(302, { location: 'http://[' });

      await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: 302,
      });
    });

    it('is broken, with the redirect status, when the next host does not resolve', async () => {
      served.handler = answer(302, { location: `http://nowhere.example:${served.port}/` });

      await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: 302,
      });
    });
  });

  describe('under the default address policy', () => {
    it.each([
      ['a name that resolves to 127.0.0.1', 'private.test'],
      ['127.0.0.1', '127.0.0.1'],
      ['::ffff:127.0.0.1', '[::ffff:127.0.0.1]'],
    ])('is unknown for %s, without connecting', async (_label, host) => {
      served.handler = answer(200);
      const policy: AddressPolicy = { resolve: resolveTestNames, allowAddress: isPublicAddress };

      await expect(checkLink(`http://${host}:${served.port}/`, options(policy))).resolves.toEqual({
        status: 'unknown',
        httpStatus: null,
      });
      expect(served.connections).toBe(0);
      expect(served.requests).toEqual([]);
    });

    it.each([
      ['a name that resolves to 127.0.0.1', 'private.test'],
      ['127.0.0.1', '127.0.0.1'],
    ])('is unknown for a redirect to %s, never sent there', async (_label, host) => {
      served.handler = (request, response) =>
        request.url === '/start'
          ? answer(302, { location: `http://${host}:${served.port}/internal` })(request, response)
          : answer(200)(request, response);
      const judged: string[] = [];

      await expect(
        checkLink(`http://public.test:${served.port}/start`, options(publicStandInPolicy(judged))),
      ).resolves.toEqual({ status: 'unknown', httpStatus: 302 });
      // The stand-in, then the private hop: the policy refused it, and no request went there.
      expect(judged).toEqual(['127.0.0.1', '127.0.0.1']);
      expect(served.requests).toEqual(['HEAD /start']);
      expect(served.connections).toBe(1);
    });

    it('lets the stand-in for a public site through', async () => {
      served.handler = answer(200);

      await expect(
        checkLink(`http://public.test:${served.port}/`, options(publicStandInPolicy([]))),
      ).resolves.toEqual({
        status: 'ok',
        httpStatus: 200,
      });
    });
  });

  describe('when the connection fails', () => {
    it('is broken, with no status, when the server resets the connection', async () => {
      served.handler = (request) => request.socket.destroy();

      await expect(checkLink(`http://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: null,
      });
    });

    it('is broken, with no status, when the TLS handshake fails', async () => {
      served.handler = answer(200);

      // The server speaks plain HTTP: no TLS handshake can succeed.
      await expect(checkLink(`https://site.test:${served.port}/`, options())).resolves.toEqual({
        status: 'broken',
        httpStatus: null,
      });
    });

    it('is broken, with no status, when the name does not resolve', async () => {
      await expect(checkLink('http://nowhere.example/', options())).resolves.toEqual({
        status: 'broken',
        httpStatus: null,
      });
    });
  });

  describe('within one deadline', () => {
    it('is broken, with no status, when the server never answers', async () => {
      served.handler = () => undefined;

      const { result, elapsedMs, timersLeft } = await timed(() =>
        checkLink(`http://site.test:${served.port}/`, options({ timeoutMs: SHORT_TIMEOUT_MS })),
      );

      expect(result).toEqual({ status: 'broken', httpStatus: null });
      expect(elapsedMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
      expect(timersLeft).toBe(0);
    });

    it('covers every redirect: hops that are each within it are not, all together', async () => {
      // Each hop answers in 120 ms, well within 300 ms; five of them are not.
      served.handler = (request, response) => {
        const timer = setTimeout(() => redirectChain(request, response), 120);
        response.on('close', () => clearTimeout(timer));
      };

      const { result, elapsedMs } = await timed(() =>
        checkLink(`http://site.test:${served.port}/hop/5`, options({ timeoutMs: SHORT_TIMEOUT_MS })),
      );

      expect(result).toEqual({ status: 'broken', httpStatus: 302 });
      expect(elapsedMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
      expect(served.requests.length).toBeLessThan(6);
    });

    it('is broken, with no status, when the name never resolves, and leaves no timer behind', async () => {
      const stalled = options({
        timeoutMs: SHORT_TIMEOUT_MS,
        resolve: () => new Promise<string[]>(() => undefined),
      });

      const { result, elapsedMs, timersLeft } = await timed(() =>
        within(checkLink('http://slow-dns.test/', stalled), SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS, null),
      );

      expect(result).toEqual({ status: 'broken', httpStatus: null });
      expect(elapsedMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
      expect(timersLeft).toBe(0);
    });

    it('is broken, with the redirect status, when the next name never resolves', async () => {
      served.handler = answer(302, { location: 'http://slow-dns.test/' });
      const stalled = options({
        timeoutMs: SHORT_TIMEOUT_MS,
        resolve: (host) =>
          host === 'slow-dns.test' ? new Promise<string[]>(() => undefined) : resolveTestNames(host),
      });

      await expect(checkLink(`http://site.test:${served.port}/`, stalled)).resolves.toEqual({
        status: 'broken',
        httpStatus: 302,
      });
    });
  });

  describe('when shut down', () => {
    it('is unknown when the signal aborts while the server keeps it waiting', async () => {
      served.handler = () => undefined;
      const shutdown = new AbortController();
      const timer = setTimeout(() => shutdown.abort(), 50);

      const { result, elapsedMs, timersLeft } = await timed(() =>
        checkLink(`http://site.test:${served.port}/`, options({ timeoutMs: 10_000 }), shutdown.signal),
      );
      clearTimeout(timer);

      expect(result).toEqual({ status: 'unknown', httpStatus: null });
      expect(elapsedMs).toBeLessThan(5000);
      expect(timersLeft).toBe(0);
    });

    it('is unknown when the signal aborts while the name resolves', async () => {
      const shutdown = new AbortController();
      const stalled = options({ timeoutMs: 10_000, resolve: () => new Promise<string[]>(() => undefined) });
      const timer = setTimeout(() => shutdown.abort(), 50);

      const { result, elapsedMs, timersLeft } = await timed(() =>
        checkLink('http://slow-dns.test/', stalled, shutdown.signal),
      );
      clearTimeout(timer);

      expect(result).toEqual({ status: 'unknown', httpStatus: null });
      expect(elapsedMs).toBeLessThan(5000);
      expect(timersLeft).toBe(0);
    });

    it('is unknown, with the redirect status, when the signal aborts on a later hop', async () => {
      const shutdown = new AbortController();
      served.handler = (request, response) => {
        if (request.url === '/start') answer(302, { location: '/wait' })(request, response);
        // The second hop keeps the check waiting until shutdown.
        else shutdown.abort();
      };

      await expect(
        checkLink(`http://site.test:${served.port}/start`, options({ timeoutMs: 10_000 }), shutdown.signal),
      ).resolves.toEqual({ status: 'unknown', httpStatus: 302 });
      expect(served.requests).toEqual(['HEAD /start', 'HEAD /wait']);
    });

    it('is unknown, without connecting, when the signal has already aborted', async () => {
      served.handler = answer(200);

      await expect(
        checkLink(`http://site.test:${served.port}/`, options(), AbortSignal.abort()),
      ).resolves.toEqual({
        status: 'unknown',
        httpStatus: null,
      });
      expect(served.connections).toBe(0);
    });
  });
});

describe('checkLink over a raw socket', () => {
  let server: TcpServer;
  let port: number;
  const sockets = new Set<Socket>();
  /** Resolves once the connection the server last accepted has closed. */
  let lastClosed: Promise<void> = Promise.resolve();
  let onConnection: (socket: Socket) => void;

  beforeAll(async () => {
    server = createTcpServer((socket) => {
      sockets.add(socket);
      lastClosed = new Promise((resolve) => socket.on('close', () => resolve()));
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      // Reads and drops the request, so the server sees the client close the connection.
      socket.resume();
      onConnection(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(() => sockets.forEach((socket) => socket.destroy()));

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is broken, with no status, within the deadline, when the server accepts and never says a word', async () => {
    onConnection = () => undefined;

    const { result, elapsedMs, timersLeft } = await timed(() =>
      checkLink(`http://site.test:${port}/`, options({ timeoutMs: SHORT_TIMEOUT_MS })),
    );

    expect(result).toEqual({ status: 'broken', httpStatus: null });
    expect(elapsedMs).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 20);
    expect(elapsedMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
    expect(timersLeft).toBe(0);
    await expectClosed(lastClosed);
  });

  it('is broken, with no status, within the deadline, when the headers come a byte at a time', async () => {
    onConnection = (socket) => {
      const text = 'HTTP/1.1 200 OK\r\n' + 'x-slow: 1\r\n'.repeat(1000);
      let at = 0;
      const timer = setInterval(() => socket.write(text[at++ % text.length]), 20);
      socket.on('close', () => clearInterval(timer));
    };

    const { result, elapsedMs } = await timed(() =>
      checkLink(`http://site.test:${port}/`, options({ timeoutMs: SHORT_TIMEOUT_MS })),
    );

    expect(result).toEqual({ status: 'broken', httpStatus: null });
    expect(elapsedMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
    await expectClosed(lastClosed);
  });

  it('stops reading endless headers after a few kilobytes: unknown, as a browser might show the page', async () => {
    let written = 0;
    onConnection = (socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      flood(socket, `x-filler: ${'y'.repeat(1000)}\r\n`, (bytes) => (written += bytes));
    };

    const { result, elapsedMs } = await timed(() =>
      checkLink(`http://site.test:${port}/`, options({ timeoutMs: 5000 })),
    );

    expect(result).toEqual({ status: 'unknown', httpStatus: null });
    expect(elapsedMs).toBeLessThan(5000);
    await expectClosed(lastClosed);
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });

  it('is broken, with no status, when the server answers with something other than HTTP', async () => {
    onConnection = (socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n');

    await expect(checkLink(`http://site.test:${port}/`, options())).resolves.toEqual({
      status: 'broken',
      httpStatus: null,
    });
  });
});

describe('checkLink without a connection', () => {
  it('is broken, with no status, when the connection is refused', async () => {
    // A port that was just free and is closed again: nothing listens there.
    const closed = createHttpServer();
    const port = await listenOnLoopback(closed);
    await closeServer(closed);

    await expect(checkLink(`http://site.test:${port}/`, options())).resolves.toEqual({
      status: 'broken',
      httpStatus: null,
    });
  });

  it.each([
    'ftp://site.test/file',
    'mailto:someone@site.test',
    'javascript:alert(1)',
    'tel:+15551234',
    'not a url',
    '',
  ])('is unknown for %j, without resolving it', async (url) => {
    const resolved: string[] = [];
    const watched = options({
      resolve: (host) => {
        resolved.push(host);
        return resolveTestNames(host);
      },
    });

    await expect(checkLink(url, watched)).resolves.toEqual({ status: 'unknown', httpStatus: null });
    expect(resolved).toEqual([]);
  });

  it('throws for a programmer error, a User-Agent no header can carry, before connecting', async () => {
    await expect(
      checkLink('http://site.test:1/', options({ userAgent: 'bad\r\nx-injected: 1' })),
    ).rejects.toThrow(/header content/i);
  });

  it('has the production defaults', () => {
    expect(DEFAULT_LINK_CHECK_OPTIONS).toMatchObject({
      allowAddress: isPublicAddress,
      timeoutMs: 10_000,
      maxRedirects: 5,
      maxBodyBytes: 4096,
    });
    expect(DEFAULT_LINK_CHECK_OPTIONS.userAgent).toMatch(/link-health-checker/);
  });
});
