import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { sleep } from './support/sleep';
import { onRealPostgres } from './support/test-database';

/** Links of 100 targets of 2,000-character URLs each: some 20 MB of CSV, more than the sockets of both ends hold. */
const LINKS = 100;
const EXPORT_BYTES = LINKS * 100 * 2000;

/** Links whose export no socket buffer can take whole, written the quick way, on any database. */
async function fillAccount(t: TestApp, account: TestAccount): Promise<void> {
  const links = Array.from({ length: LINKS }, (_, i) => ({ url: `https://example.com/big/${i}` }));
  const response = await t
    .http()
    .post('/api/v1/links/bulk')
    .set('Authorization', account.auth)
    .send({ links });
  expect(response.status).toBe(201);
  await t.dataSource.query(
    `UPDATE links
        SET targets_type = 'rotations',
            targets = (SELECT jsonb_agg(jsonb_build_object('value', 'https://example.com/' || repeat('t', 2000) || n))
                         FROM generate_series(1, 100) AS n)
      WHERE account_id = $1`,
    [account.id],
  );
}

/** Every link of the account: the big export. */
const BIG_EXPORT = '/api/v1/links/export';

interface Stalled {
  socket: Socket;
  /** Resolves with every byte the client got, once the server has closed the connection. */
  closed: Promise<Buffer>;
}

/**
 * A download that the client starts and then stops reading: the export has begun (its first bytes arrived), and
 * from then on the client takes nothing, as a client that hangs or a peer that stopped reading on purpose.
 */
function stalledDownload(t: TestApp, path: string, account: TestAccount): Promise<Stalled> {
  const { port } = (t.app.getHttpServer() as Server).address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  const closed = new Promise<Buffer>((resolve) => socket.on('close', () => resolve(Buffer.concat(received))));
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${account.auth}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    socket.once('close', () => reject(new Error('the connection closed before the export began')));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (received.length > 1) return;
      socket.pause();
      resolve({ socket, closed });
    });
  });
}

/** Waits for a condition, with a limit far beyond what it takes, so that a slow machine does not fail the test. */
async function until(what: string, condition: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: still not so after ${limitMs} ms`);
    await sleep(50);
  }
}

async function listening(t: TestApp): Promise<void> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}

/** An export that finds nothing: it answers at once, but takes a slot while it does. */
const SMALL_EXPORT = '/api/v1/links/export?search=nothing-matches-this';

describe('export slots', () => {
  // Slow clients keep their slots here: only a client that stops reading for 10 minutes loses one.
  let patient: TestApp;
  // Exports whose client stops reading for a second are ended.
  let strict: TestApp;
  let app: TestApp;
  const { call } = apiClient(() => app);
  const common = { RATE_LIMIT_PER_MINUTE: '0', DATABASE_STATEMENT_TIMEOUT_MS: '120000' };

  beforeAll(async () => {
    patient = await createTestApp({ ...common, EXPORT_STALL_TIMEOUT_MS: '600000' });
    strict = await createTestApp({ ...common, EXPORT_STALL_TIMEOUT_MS: '1000' });
    await listening(patient);
    await listening(strict);
  }, 60_000);
  afterAll(async () => {
    await patient?.close();
    await strict?.close();
  });

  // The embedded database that the tests share serves every connection through one session, which a cursor's
  // transaction holds: there, downloads queue behind each other whatever the slots. (A server on its own embedded
  // database reads exports in windows, one statement each, and holds no session.)
  (onRealPostgres() ? it : it.skip)(
    'lets another account export while one account holds every slot it may have',
    async () => {
      app = patient;
      const a = await createAccount(app);
      const b = await createAccount(app);
      await fillAccount(app, a);
      const held = [await stalledDownload(app, BIG_EXPORT, a), await stalledDownload(app, BIG_EXPORT, a)];
      try {
        const other = await call(b, 'get', SMALL_EXPORT);
        expect(other.status).toBe(200);
        expect(other.text).toMatch(/^id,alias,/);

        const refused = await call(a, 'get', SMALL_EXPORT);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({ message: 'Too Many Attempts.', status: 429 });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        for (const download of held) download.socket.destroy();
      }
      // A client that goes away gives its slot back.
      await until('account A exports again', async () => (await call(a, 'get', SMALL_EXPORT)).status === 200);
    },
    120_000,
  );

  it('ends an export whose client stops reading, and frees its slot and its database connection', async () => {
    app = strict;
    const account = await createAccount(app);
    await fillAccount(app, account);
    // Every slot the account may hold, each taken by a download that is no longer read.
    const stalled = [
      await stalledDownload(app, BIG_EXPORT, account),
      await stalledDownload(app, BIG_EXPORT, account),
    ];
    try {
      await until(
        'the slots are free',
        async () => (await call(account, 'get', SMALL_EXPORT)).status === 200,
      );
      const pool = (app.dataSource.driver as PostgresDriver).master as Pool;
      await until('every connection is back in the pool', () =>
        Promise.resolve(pool.idleCount === pool.totalCount),
      );

      // The client reads again: what the server had sent arrives, then the end of a connection cut short,
      // without the last chunk that ends a whole response.
      for (const download of stalled) {
        download.socket.resume();
        const received = (await download.closed).toString('latin1');
        expect(received.startsWith('HTTP/1.1 200 OK')).toBe(true);
        expect(received.endsWith('\r\n0\r\n\r\n')).toBe(false);
        expect(received.length).toBeLessThan(EXPORT_BYTES);
      }
    } finally {
      for (const download of stalled) download.socket.destroy();
    }
  }, 120_000);
});
