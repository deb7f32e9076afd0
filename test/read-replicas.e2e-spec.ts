import { childEnv, cliAccount, killAllChildren, startServer, type ServerProcess } from './support/process';
import { sleep } from './support/sleep';
import { canStreamReplicas, StreamingReplica } from './support/streaming-replica';
import { onRealPostgres } from './support/test-database';
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

  beforeAll(async () => {
    cluster = await StreamingReplica.start('shortlink');
    const primaryUrl = cluster.url(cluster.primaryPort, 'shortlink');
    const env = childEnv({ DATABASE_URL: primaryUrl, LOG_LEVEL: 'warn', INITIAL_API_KEY: undefined });
    ({ apiKey } = await cliAccount('Replicas', env));
    [reading, writing] = await Promise.all([
      startServer({
        env: {
          ...env,
          DATABASE_REPLICA_URL: cluster.url(cluster.replicaPort, 'shortlink'),
          REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
        },
      }),
      startServer({ env }),
    ]);
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
