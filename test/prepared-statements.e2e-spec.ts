import { Client } from 'pg';
import { QueryFailedError } from 'typeorm';
import { PreparedStatements } from '../src/database/prepared-statements';
import { createAccount, createTestApp, type TestApp } from './support/app';
import { memoryDatabase, scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { sleep } from './support/sleep';
import { TcpProxy } from './support/tcp-proxy';
import { onRealPostgres } from './support/test-database';

/**
 * The busiest statements are prepared by name on each connection. Connections that share one session, as those
 * to an embedded database served over its socket do, cannot each prepare the same name: the statements then run
 * unnamed, and no request fails for it.
 */
describe('prepared statements on connections that share one session', () => {
  let scratch: ScratchDatabase;
  let t: TestApp;

  beforeAll(async () => {
    scratch = await memoryDatabase();
    t = await createTestApp({ DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: '4' });
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  it('answers requests made at once over several connections', async () => {
    const account = await createAccount(t);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        t
          .http()
          .post('/api/v1/links')
          .set('Authorization', account.auth)
          .send({ url: `https://example.com/${n}` }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(12).fill(201));
    const listed = await t.http().get('/api/v1/links').set('Authorization', account.auth);
    expect(listed.body.meta.total).toBe(12);
  });
});

const describeOnPostgres = onRealPostgres() ? describe : describe.skip;

/*
 * A connection that breaks while a prepared statement holds it (a reset network, a failover) fails that statement;
 * it must not take the process down with an 'error' event nobody listens to.
 */
describeOnPostgres('a prepared statement whose connection breaks (PostgreSQL only)', () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_prepared');
    proxy = await TcpProxy.forDatabase(scratch.url);
    t = await createTestApp({ DATABASE_URL: proxy.urlFor(scratch.url) });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it('fails that statement, keeps the process up, and serves the next one on a new connection', async () => {
    const statements = t.app.get(PreparedStatements);
    const uncaught: unknown[] = [];
    const note = (error: unknown): void => void uncaught.push(error);
    process.on('uncaughtException', note);
    try {
      const sleeping = statements
        .query({ name: 'test_sleep', text: 'SELECT pg_sleep(30)' }, [])
        .catch((error: unknown) => error);
      await waitUntilSleeping(new URL(scratch.url).pathname.slice(1));
      proxy.cut();
      proxy.restore();
      expect(await sleeping).toBeInstanceOf(QueryFailedError);
      expect(uncaught).toEqual([]);
      await expect(statements.query({ name: 'test_one', text: 'SELECT 1 AS one' }, [])).resolves.toEqual([
        { one: 1 },
      ]);
    } finally {
      process.off('uncaughtException', note);
    }
  });
});

/** Waits until a session of `database` runs `SELECT pg_sleep(30)`. */
async function waitUntilSleeping(database: string): Promise<void> {
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
  await admin.connect();
  try {
    for (let tries = 0; tries < 200; tries += 1) {
      const { rowCount } = await admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query = 'SELECT pg_sleep(30)' AND state = 'active'`,
        [database],
      );
      if (rowCount === 1) return;
      await sleep(25);
    }
    throw new Error('the statement did not start within 5 s');
  } finally {
    await admin.end();
  }
}
