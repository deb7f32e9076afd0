import { Client } from 'pg';
import { childEnv, killAllChildren, startServer, type ServerProcess } from './support/process';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { onRealPostgres } from './support/test-database';

const UNAVAILABLE = { message: 'Service unavailable.', status: 503 };

/** Statements on the run's server as its administrator (ALTER DATABASE, pg_terminate_backend, DROP DATABASE). */
async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const describeOnPostgres = onRealPostgres() ? describe : describe.skip;

/*
 * A database that refuses the session is an outage, not a bug: the server answers the contract's 503. The server
 * runs as its own process, on a database of its own that the test can close and drop.
 */
describeOnPostgres(
  'a database that refuses the session (PostgreSQL only: the embedded database cannot be closed or dropped)',
  () => {
    let scratch: ScratchDatabase;
    let name: string;
    let server: ServerProcess;
    const apiKey = process.env.INITIAL_API_KEY!;

    async function get(path: string): Promise<{ status: number; body: unknown }> {
      const response = await fetch(`${server.url}${path}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
        signal: AbortSignal.timeout(10_000),
      }).catch((error: unknown) => {
        // A server that went down says why in its output.
        throw new Error(
          `GET ${path} failed (${String(error)}); server running: ${server.running}\n${server.describe()}`,
        );
      });
      const body: unknown = await response.json();
      return { status: response.status, body };
    }

    /** Several requests in a row: the first ones may meet pooled connections, the later ones must connect. */
    async function account(times: number): Promise<{ status: number; body: unknown }[]> {
      const answers = [];
      for (let index = 0; index < times; index += 1) answers.push(await get('/api/v1/account'));
      return answers;
    }

    beforeAll(async () => {
      scratch = await scratchDatabase('shortlink_refused');
      name = new URL(scratch.url).pathname.slice(1);
      // On its empty database the server makes the first account with the run's INITIAL_API_KEY.
      server = await startServer({ env: childEnv({ DATABASE_URL: scratch.url }) });
    });

    afterAll(async () => {
      await server?.stop();
      await killAllChildren();
      await scratch?.drop();
    });

    it('answers 503, not 500, while the database does not allow connections, and recovers once it does', async () => {
      expect((await get('/api/v1/account')).status).toBe(200);

      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      try {
        await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
        expect(await account(4)).toEqual(Array(4).fill({ status: 503, body: UNAVAILABLE }));
        expect((await get('/health/ready')).status).toBe(503);
      } finally {
        await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      }
      expect((await get('/api/v1/account')).status).toBe(200);
    });

    it('answers 503, not 500, once the database is dropped', async () => {
      expect((await get('/api/v1/account')).status).toBe(200);

      await admin(`DROP DATABASE "${name}" WITH (FORCE)`);
      expect(await account(4)).toEqual(Array(4).fill({ status: 503, body: UNAVAILABLE }));
      expect((await get('/health/ready')).status).toBe(503);
      expect(server.running).toBe(true);
    });
  },
);
