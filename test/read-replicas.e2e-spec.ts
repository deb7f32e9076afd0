import { childEnv, cliAccount, killAllChildren, startServer, type ServerProcess } from './support/process';
import { sleep } from './support/sleep';
import { canStreamReplicas, StreamingReplica } from './support/streaming-replica';
import { onRealPostgres } from './support/test-database';
import { testRedisUrl } from './support/redis';
import { unique } from './support/visitors';

/** Long enough that a list made right after replay is paused still finds the replica recent enough. */
const MAX_LAG_MS = 4000;

const replicasHere = onRealPostgres() && canStreamReplicas();

/*
 * A primary and a streaming replica of the test's own, and two instances on them: `reading` reads from the replica
 * (DATABASE_REPLICA_URL), `writing` knows only the primary. Pausing the replica's replay makes it fall behind on
 * purpose, which shows where each list was read.
 */
(replicasHere ? describe : describe.skip)('read replicas', () => {
  let cluster: StreamingReplica;
  let reading: ServerProcess;
  let writing: ServerProcess;
  let apiKey: string;
  let readingEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cluster = await StreamingReplica.start('shortlink');
    const primaryUrl = cluster.url(cluster.primaryPort, 'shortlink');
    const env = childEnv({ DATABASE_URL: primaryUrl, LOG_LEVEL: 'warn', INITIAL_API_KEY: undefined });
    ({ apiKey } = await cliAccount('Replicas', env));
    readingEnv = {
      ...env,
      DATABASE_REPLICA_URL: cluster.url(cluster.replicaPort, 'shortlink'),
      REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    };
    [reading, writing] = await Promise.all([startServer({ env: readingEnv }), startServer({ env })]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([reading?.stop(), writing?.stop()]);
    await killAllChildren();
    await cluster?.stop();
  });

  async function api(server: ServerProcess, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: (await response.json()) as { data: unknown } };
  }

  async function create(server: ServerProcess): Promise<string> {
    const alias = unique('replica');
    const created = await api(server, 'POST', '/links', { url: `https://example.com/${alias}`, alias });
    expect(created.status).toBe(201);
    return alias;
  }

  /** How many links a list by `server` counts: the count is the list's own statement, where it is read. */
  async function totalOf(server: ServerProcess): Promise<number> {
    const list = await api(server, 'GET', '/links?per_page=10');
    return (list.body as unknown as { meta: { total: number } }).meta.total;
  }

  /** The aliases a list by `server` shows, of those asked about. */
  async function listed(server: ServerProcess, aliases: string[]): Promise<string[]> {
    const list = await api(server, 'GET', '/links?per_page=100');
    expect(list.status).toBe(200);
    const shown = new Set((list.body.data as { alias: string }[]).map((link) => link.alias));
    return aliases.filter((alias) => shown.has(alias));
  }

  it('lists from the replica, a client that just wrote from the primary, and the primary once the replica lags too far', async () => {
    const before = await create(writing);
    // Once the reading instance has checked the replica a few times, it reads there.
    await sleep(1000);
    expect(await listed(reading, [before])).toEqual([before]);

    await cluster.pauseReplay();
    const elsewhere = await create(writing);
    // Written through another instance, which this one does not hear of: the replica, still recent enough, lacks it.
    expect(await listed(reading, [before, elsewhere])).toEqual([before]);
    // Its own write: read from the primary, with the other one.
    const own = await create(reading);
    expect(await listed(reading, [before, elsewhere, own])).toEqual([before, elsewhere, own]);

    await cluster.resumeReplay();
    await sleep(1000);
    await cluster.pauseReplay();
    const later = await create(writing);
    expect(await listed(reading, [later])).toEqual([]);
    // Past REPLICA_MAX_LAG_MS behind: every read goes to the primary.
    await sleep(MAX_LAG_MS + 500);
    expect(await listed(reading, [later])).toEqual([later]);
    await cluster.resumeReplay();
  });

  (testRedisUrl() === undefined ? it.skip : it)(
    'with Redis, reads a write made through another instance at once, and still reads the rest from the replica',
    async () => {
      // A third instance with the replica and the run's Redis, as the reading one: each marks where it wrote.
      const marking = await startServer({ env: readingEnv });
      try {
        const gone = unique('replica');
        const created = await api(marking, 'POST', '/links', {
          url: 'https://example.com/gone',
          alias: gone,
        });
        const { id } = created.body.data as { id: number };
        await sleep(1000);
        const total = await totalOf(reading);
        await cluster.pauseReplay();
        // Deleted behind every instance's back: a count on the replica still has it, the primary's not.
        await cluster.onPrimary(`DELETE FROM links WHERE id = ${id}`, 'shortlink');
        expect(await totalOf(reading)).toBe(total);

        const made = await create(marking);
        expect(await listed(reading, [made])).toEqual([made]);
        expect(await totalOf(reading)).toBe(total);
      } finally {
        await cluster.resumeReplay();
        await marking.stop();
      }
    },
  );

  it('reads stats and lists from the primary while the replica is down, without a restart', async () => {
    const alias = unique('replica');
    const created = await api(writing, 'POST', '/links', { url: 'https://example.com/down', alias });
    const { id } = created.body.data as { id: number };
    await sleep(500);
    await cluster.stopReplica();
    expect(await listed(reading, [alias])).toEqual([alias]);
    const stats = await api(reading, 'GET', `/stats/${id}?name=clicks`);
    expect(stats.status).toBe(200);
    expect(reading.running).toBe(true);
  });
});
