import { Client } from 'pg';
import { onRealPostgres } from './support/test-database';
import { childEnv, killAllChildren, startServer } from './support/process';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';

/** The start-up warning of a database server that will not vacuum (PostgreSQL only: the embedded one never warns). */
(onRealPostgres() ? describe : describe.skip)('a database server that does not vacuum', () => {
  let database: ScratchDatabase;
  let serverVacuums: boolean;

  beforeAll(async () => {
    database = await scratchDatabase('shortlink_autovacuum');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      // autovacuum is the server's own setting; track_counts, which it decides by, can be turned off per database.
      const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
      serverVacuums = rows[0].autovacuum === 'on';
    } finally {
      await client.end();
    }
  });

  afterAll(async () => {
    await killAllChildren();
    await database.drop();
  });

  function warnings(stdout: string): string[] {
    return stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number | string; msg?: string })
      .flatMap((entry) => (entry.msg?.includes('on the database server') === true ? [entry.msg] : []));
  }

  it('is named once at start, with each setting that keeps autovacuum from running', async () => {
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET track_counts = off`);
    } finally {
      await admin.end();
    }
    const server = await startServer({ env: childEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }) });
    const exit = await server.stop();

    expect(exit).toBe(0);
    const expected = serverVacuums ? 'track_counts is off' : 'autovacuum and track_counts are off';
    expect(warnings(server.stdout)).toEqual([expect.stringContaining(expected)]);
  });

  it('is silent when the database is vacuumed, and only then', async () => {
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" RESET track_counts`);
    } finally {
      await admin.end();
    }
    const server = await startServer({ env: childEnv({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }) });
    const exit = await server.stop();

    expect(exit).toBe(0);
    expect(warnings(server.stdout)).toEqual(
      serverVacuums ? [] : [expect.stringMatching(/^autovacuum is off/)],
    );
  });
});
