import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { isPublicAddress } from '../src/common/outbound-address';
import {
  DEFAULT_WEBHOOK_SEND_OPTIONS,
  WebhookSender,
  type DeliveryOutcome,
  type WebhookSendOptions,
} from '../src/events/webhooks/webhook-sender';
import { generateWebhookSecret, signatureHeaders } from '../src/events/webhooks/webhook-signature';

const EVENT_ID = 'evt_0123456789abcdef0123456789abcdef';
const BODY = JSON.stringify({
  id: EVENT_ID,
  type: 'link.created',
  created_at: '2026-11-26T10:05:00.000000Z',
  data: { id: 5, alias: 'abc', title: 'Café 😀' },
});
const KB = 1024;

/** A request as the receiver saw it. */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The name the client asked for in TLS (SNI); undefined over plain HTTP. */
  servername: string | undefined;
}

/** A local receiver that records what reaches it, answering through a handler each test sets. */
interface Receiver {
  server: Server;
  port: number;
  received: Received[];
  /** Connections accepted, answered or not. */
  connections: number;
  handle: (request: IncomingMessage, response: ServerResponse) => void;
}

async function startReceiver(server: Server = createServer()): Promise<Receiver> {
  const receiver: Receiver = {
    server,
    port: 0,
    received: [],
    connections: 0,
    handle: (_request, response) => response.end(),
  };
  server.on('connection', () => (receiver.connections += 1));
  server.on('secureConnection', () => (receiver.connections += 1));
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        servername: (request.socket as TLSSocket).servername || undefined,
      });
      receiver.handle(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

async function stopReceiver(receiver: Receiver | undefined): Promise<void> {
  if (receiver === undefined) return;
  receiver.server.closeAllConnections();
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
}

/** The receiver's names: every `*.test` name is 127.0.0.1, as far as the sender's resolver knows. */
function localNames(host: string): Promise<string[]> {
  return host.endsWith('.test')
    ? Promise.resolve(['127.0.0.1'])
    : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
}

/** A sender whose policy allows the loopback receivers, and nothing else, unless a test says otherwise. */
function sender(options: Partial<WebhookSendOptions> = {}): WebhookSender {
  return new WebhookSender({
    ...DEFAULT_WEBHOOK_SEND_OPTIONS,
    resolve: localNames,
    allowAddress: (address) => address === '127.0.0.1',
    timeoutMs: 5000,
    ...options,
  });
}

function signed(secret: string) {
  return signatureHeaders(secret, EVENT_ID, BODY, Math.floor(Date.now() / 1000));
}

/** What the standardwebhooks library says of a request the receiver got. */
function verdict(secret: string, received: Received): string {
  try {
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>);
    return 'verified';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('WebhookSender', () => {
  let receiver: Receiver;
  /** Where a receiver's redirects point: it must never be asked. */
  let elsewhere: Receiver;
  const secret = generateWebhookSecret();

  beforeAll(async () => {
    receiver = await startReceiver();
    elsewhere = await startReceiver();
  });

  afterAll(async () => {
    await stopReceiver(receiver);
    await stopReceiver(elsewhere);
  });

  beforeEach(() => {
    for (const each of [receiver, elsewhere]) {
      each.received = [];
      each.connections = 0;
      each.handle = (_request, response) => response.end();
    }
  });

  function at(path = '/hooks', host = 'receiver.test'): string {
    return `http://${host}:${receiver.port}${path}`;
  }

  it('POSTs the event as JSON with headers the standardwebhooks library verifies; a 2xx is delivered', async () => {
    receiver.handle = (_request, response) => {
      response.writeHead(202, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    };

    const outcome = await sender().send(at('/hooks?source=links'), signed(secret), BODY);

    expect(outcome).toEqual({ status: 202, error: null, durationMs: expect.any(Number) });
    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/hooks?source=links');
    expect(received.body).toBe(BODY);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    // The connection went to the checked address; the request still names the host.
    expect(received.headers.host).toBe(`receiver.test:${receiver.port}`);
    expect(received.headers['webhook-id']).toBe(EVENT_ID);
    expect(verdict(secret, received)).toBe('verified');
    expect(verdict(generateWebhookSecret(), received)).toBe('No matching signature found');
  });

  it.each([200, 201, 204, 299])('counts %i as delivered', async (status) => {
    receiver.handle = (_request, response) => {
      response.writeHead(status);
      response.end();
    };

    await expect(sender().send(at(), signed(secret), BODY)).resolves.toMatchObject({ status, error: null });
  });

  it('fails on a 500 with its status and a short excerpt of the answer', async () => {
    receiver.handle = (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`database down\n${'x'.repeat(5000)}`);
    };

    const outcome = await sender().send(at(), signed(secret), BODY);

    expect(outcome.status).toBe(500);
    expect(outcome.error).toBe(`HTTP 500: database down ${'x'.repeat(86)}…`);
  });

  it('never shows the signature back, even from a receiver that echoes it', async () => {
    receiver.handle = (request, response) => {
      response.writeHead(401, { 'content-type': 'text/plain' });
      response.end(`bad ${String(request.headers['webhook-signature'])}`);
    };
    const headers = signed(secret);

    const outcome = await sender().send(at(), headers, BODY);

    expect(outcome).toMatchObject({ status: 401, error: 'HTTP 401: bad [redacted]' });
    expect(outcome.error).not.toContain(headers['webhook-signature'].slice(3, 20));
    expect(outcome.error).not.toContain(secret.slice(6, 20));
  });

  it.each([301, 302, 307, 308])(
    'fails on a %i with its status and never follows it to the Location',
    async (status) => {
      receiver.handle = (_request, response) => {
        response.writeHead(status, { location: `http://127.0.0.1:${elsewhere.port}/moved` });
        response.end();
      };

      const outcome = await sender({ allowAddress: () => true }).send(at(), signed(secret), BODY);

      expect(outcome).toMatchObject({ status, error: `HTTP ${status} (redirect not followed)` });
      expect(receiver.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
      expect(elsewhere.connections).toBe(0);
    },
  );

  it('gives up at the deadline on a receiver that never answers, with no status', async () => {
    receiver.handle = () => undefined;

    const outcome = await sender({ timeoutMs: 300 }).send(at(), signed(secret), BODY);

    expect(outcome).toMatchObject({ status: null, error: 'timeout after 0.3 s' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it('gives up at the deadline when the name never resolves', async () => {
    const outcome = await sender({
      timeoutMs: 300,
      resolve: () => new Promise<string[]>(() => undefined),
    }).send(at(), signed(secret), BODY);

    expect(outcome).toMatchObject({ status: null, error: 'timeout after 0.3 s' });
    expect(outcome.durationMs).toBeLessThan(2000);
    expect(receiver.connections).toBe(0);
  });

  describe('a receiver that streams an endless answer', () => {
    /** Bytes the receiver wrote before it saw its connection closed; resolves at the close. */
    function streamForever(status: number, chunk: Buffer, everyMs: number): Promise<number> {
      return new Promise((resolve) => {
        receiver.handle = (_request, response) => {
          let written = 0;
          response.writeHead(status, { 'content-type': 'text/plain' });
          const timer = setInterval(() => {
            response.write(chunk);
            written += chunk.length;
          }, everyMs);
          response.socket?.on('close', () => {
            clearInterval(timer);
            resolve(written);
          });
        };
      });
    }

    it('is cut after 64 KB: the call returns at once and the connection is closed', async () => {
      const closed = streamForever(200, Buffer.alloc(KB, 'a'), 2);

      const outcome = await sender({ timeoutMs: 20_000 }).send(at(), signed(secret), BODY);
      const written = await closed;

      expect(outcome).toMatchObject({ status: 200, error: null });
      expect(outcome.durationMs).toBeLessThan(10_000);
      // Read up to the cap, not short of it, and closed soon after it.
      expect(written).toBeGreaterThanOrEqual(64 * KB);
      expect(written).toBeLessThan(128 * KB);
    });

    it('is cut as fast as it streams, and a failing status keeps its excerpt', async () => {
      const closed = streamForever(503, Buffer.alloc(64 * KB, 'busy '), 0);

      const outcome = await sender({ timeoutMs: 20_000 }).send(at(), signed(secret), BODY);
      await closed;

      expect(outcome.status).toBe(503);
      expect(outcome.error).toMatch(/^HTTP 503: busy busy /);
      expect(outcome.durationMs).toBeLessThan(10_000);
    });

    it('keeps the status when the deadline passes during a slow answer', async () => {
      const closed = streamForever(200, Buffer.from('.'), 50);

      const outcome = await sender({ timeoutMs: 400 }).send(at(), signed(secret), BODY);
      await closed;

      expect(outcome).toMatchObject({ status: 200, error: null });
      expect(outcome.durationMs).toBeLessThan(2000);
    });
  });

  it.each([
    ['closes', 200, (socket: Socket) => socket.destroy(), null],
    ['resets', 500, (socket: Socket) => socket.resetAndDestroy(), 'HTTP 500: partial answer'],
  ])(
    'keeps the status of a receiver that %s the connection in the middle of its answer',
    async (_label, status, hangUp, error) => {
      receiver.handle = (_request, response) => {
        response.writeHead(status, { 'content-type': 'text/plain', 'content-length': '1000' });
        response.write('partial answer', () => setTimeout(() => hangUp(response.socket!), 20));
      };

      const outcome = await sender().send(at(), signed(secret), BODY);

      expect(outcome).toMatchObject({ status, error });
    },
  );

  describe('the address policy, checked at every call', () => {
    /** The production policy; only names are resolved locally. */
    const production = (options: Partial<WebhookSendOptions> = {}) =>
      sender({ allowAddress: isPublicAddress, ...options });

    it('refuses a name that resolves to a loopback address before any connection', async () => {
      const outcome = await production().send(at(), signed(secret), BODY);

      expect(outcome).toMatchObject({ status: null, error: 'address not allowed' });
      expect(receiver.connections).toBe(0);
      expect(receiver.received).toEqual([]);
    });

    it.each(['127.0.0.1', '[::ffff:127.0.0.1]', '2130706433'])(
      'refuses the loopback address written as %s, without resolving it',
      async (host) => {
        const asked: string[] = [];
        const outcome = await production({
          resolve: (name) => {
            asked.push(name);
            return localNames(name);
          },
        }).send(at('/hooks', host), signed(secret), BODY);

        expect(outcome).toMatchObject({ status: null, error: 'address not allowed' });
        expect(asked).toEqual([]);
        expect(receiver.connections).toBe(0);
      },
    );

    it.each([
      ['a public one, then a private one', ['8.8.8.8', '127.0.0.1']],
      ['a private one, then a public one', ['10.0.0.1', '8.8.8.8']],
    ])('refuses a name with two addresses, %s', async (_label, addresses) => {
      const outcome = await production({ resolve: () => Promise.resolve(addresses) }).send(
        at(),
        signed(secret),
        BODY,
      );

      expect(outcome).toMatchObject({ status: null, error: 'address not allowed' });
      expect(receiver.connections).toBe(0);
    });

    it('resolves again at every call: a name that turns private is refused from then on', async () => {
      let answer = ['127.0.0.1'];
      const resolved: string[] = [];
      const rebinding = sender({
        resolve: (host) => {
          resolved.push(host);
          return Promise.resolve(answer);
        },
      });

      const first = await rebinding.send(at(), signed(secret), BODY);
      answer = ['10.0.0.1'];
      const second = await rebinding.send(at(), signed(secret), BODY);

      expect([first.error, second.error]).toEqual([null, 'address not allowed']);
      expect(resolved).toEqual(['receiver.test', 'receiver.test']);
      expect(receiver.received).toHaveLength(1);
    });

    it('sends to the loopback receiver when allowPrivateAddresses lifts the policy', async () => {
      const outcome = await production({ allowPrivateAddresses: true }).send(at(), signed(secret), BODY);

      expect(outcome).toMatchObject({ status: 200, error: null });
      expect(receiver.received).toHaveLength(1);
      expect(verdict(secret, receiver.received[0])).toBe('verified');
    });

    it('shows no words of an internal receiver’s answer, allowed only by allowPrivateAddresses', async () => {
      receiver.handle = (_request, response) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('internal admin panel: secrets here');
      };

      const outcome = await production({ allowPrivateAddresses: true }).send(at(), signed(secret), BODY);

      expect(outcome).toMatchObject({ status: 500, error: 'HTTP 500' });
    });
  });

  describe('failures before an answer', () => {
    it('says the connection was refused', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      const outcome = await sender().send(`http://receiver.test:${port}/`, signed(secret), BODY);

      expect(outcome).toMatchObject({ status: null, error: 'connection refused' });
    });

    it('says the connection was reset when the receiver hangs up without answering', async () => {
      receiver.handle = (request) => request.socket.destroy();

      await expect(sender().send(at(), signed(secret), BODY)).resolves.toMatchObject({
        status: null,
        error: 'connection reset',
      });
    });

    it('says a name was not found', async () => {
      await expect(
        sender().send(`http://nowhere.invalid:${receiver.port}/`, signed(secret), BODY),
      ).resolves.toMatchObject({ status: null, error: 'host not found' });
    });

    it.each([
      ['ftp://receiver.test/hooks', 'URL scheme not allowed'],
      ['not a url', 'invalid URL'],
    ])('refuses %j: %s', async (url, error) => {
      await expect(sender().send(url, signed(secret), BODY)).resolves.toMatchObject({ status: null, error });
    });

    it('never throws, and never tells the URL or the address in its reason', async () => {
      const outcomes: DeliveryOutcome[] = await Promise.all([
        sender({ allowAddress: isPublicAddress }).send(
          `http://user:hunter2@receiver.test:${receiver.port}/`,
          signed(secret),
          BODY,
        ),
        sender().send(`http://user:hunter2@receiver.test:1/`, signed(secret), BODY),
      ]);

      for (const outcome of outcomes) {
        expect(outcome.error).not.toMatch(/hunter2|receiver\.test|127\.0\.0\.1/);
      }
    });
  });

  describe('over HTTPS', () => {
    let directory: string;
    let tls: Receiver;
    let certificate: string;

    beforeAll(async () => {
      directory = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
      // A certificate for receiver.test alone, made for this run.
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '2',
          '-subj',
          '/CN=receiver.test',
          '-addext',
          'subjectAltName=DNS:receiver.test',
          '-keyout',
          join(directory, 'key.pem'),
          '-out',
          join(directory, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      certificate = readFileSync(join(directory, 'cert.pem'), 'utf8');
      tls = await startReceiver(
        createTlsServer({ key: readFileSync(join(directory, 'key.pem')), cert: certificate }),
      );
    });

    afterAll(async () => {
      await stopReceiver(tls);
      rmSync(directory, { recursive: true, force: true });
    });

    beforeEach(() => {
      tls.received = [];
      tls.handle = (_request, response) => response.end();
    });

    it('connects to the checked address with the name in SNI and Host, and the certificate checked for it', async () => {
      const outcome = await sender({ ca: certificate }).send(
        `https://receiver.test:${tls.port}/hooks`,
        signed(secret),
        BODY,
      );

      expect(outcome).toMatchObject({ status: 200, error: null });
      expect(tls.received).toHaveLength(1);
      expect(tls.received[0].servername).toBe('receiver.test');
      expect(tls.received[0].headers.host).toBe(`receiver.test:${tls.port}`);
      expect(verdict(secret, tls.received[0])).toBe('verified');
    });

    it('fails on a certificate for another name', async () => {
      const outcome = await sender({ ca: certificate }).send(
        `https://other.test:${tls.port}/hooks`,
        signed(secret),
        BODY,
      );

      expect(outcome).toMatchObject({ status: null, error: 'TLS error: ERR_TLS_CERT_ALTNAME_INVALID' });
      expect(tls.received).toEqual([]);
    });

    it('fails on a certificate no trusted authority signed', async () => {
      const outcome = await sender().send(`https://receiver.test:${tls.port}/hooks`, signed(secret), BODY);

      expect(outcome).toMatchObject({ status: null, error: 'TLS error: DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(tls.received).toEqual([]);
    });
  });
});
