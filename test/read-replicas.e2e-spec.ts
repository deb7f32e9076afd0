import { childEnv, cliAccount, killAllChildren, startServer, type ServerProcess } from './support/process';
import { sleep } from './support/sleep';
import { TcpProxy } from './support/tcp-proxy';
import { canStreamReplicas, StreamingReplica } from './support/streaming-replica';
import { onRealPostgres } from './support/test-database';
import { testRedisUrl } from './support/redis';
import { unique } from './support/visitors';

/** The pool of the instance behind the balancer: at most this many connections can have met the standby. */
const POOL_SIZE = 5;

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

  /** Until the replica has replayed all the primary wrote, and the instances have checked it since. */
  async function caughtUp(): Promise<void> {
    await cluster.untilCaughtUp();
    await sleep(500);
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
    // Once the replica has it and the reading instance has checked the replica since, it reads there.
    await caughtUp();
    expect(await listed(reading, [before])).toEqual([before]);

    await cluster.pauseReplay();
    const elsewhere = await create(writing);
    // Written through another instance, which this one does not hear of: the replica, still recent enough, lacks it.
    expect(await listed(reading, [before, elsewhere])).toEqual([before]);
    // Its own write: read from the primary, with the other one.
    const own = await create(reading);
    expect(await listed(reading, [before, elsewhere, own])).toEqual([before, elsewhere, own]);

    await cluster.resumeReplay();
    await caughtUp();
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
        await caughtUp();
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

/*
 * A balancer in front of a primary and its standby, as HAProxy with the standby as a backup server: the primary is
 * killed, the balancer sends new connections to the standby before anyone promotes it, then it is promoted.
 */
(replicasHere ? describe : describe.skip)('a promoted replica behind a balancer', () => {
  let cluster: StreamingReplica;
  let balancer: TcpProxy;
  let server: ServerProcess;
  let apiKey: string;

  beforeAll(async () => {
    cluster = await StreamingReplica.start('shortlink');
    balancer = await TcpProxy.start({ host: '127.0.0.1', port: cluster.primaryPort });
    const env = childEnv({
      DATABASE_URL: balancer.urlFor(cluster.url(cluster.primaryPort, 'shortlink')),
      LOG_LEVEL: 'warn',
      INITIAL_API_KEY: undefined,
      DATABASE_POOL_TIMEOUT_MS: '1000',
      DATABASE_POOL_SIZE: String(POOL_SIZE),
    });
    ({ apiKey } = await cliAccount('Promoted', env));
    server = await startServer({ env });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await killAllChildren();
    await balancer?.close();
    await cluster?.stop();
  });

  async function create(): Promise<{ status: number; retryAfter: string | null; alias: string }> {
    const alias = unique('promoted');
    const started = Date.now();
    const response = await fetch(`${server.url}/api/v1/links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `https://example.com/${alias}`, alias }),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    // Never a hang: the pool's and the statement's bounds answer within 5 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    return { status: response.status, retryAfter: response.headers.get('retry-after'), alias };
  }

  async function visit(alias: string): Promise<number> {
    const response = await fetch(`${server.url}/${alias}`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** The primary is lost and the balancer sends new connections to the standby: writes are refused, 503. */
  async function loseThePrimary(): Promise<void> {
    await cluster.stopPrimary();
    balancer.retarget(cluster.replicaPort);
    const refused = [await create(), await create(), await create()];
    expect(refused.map((answer) => [answer.status, answer.retryAfter])).toEqual([
      [503, '1'],
      [503, '1'],
      [503, '1'],
    ]);
  }

  it('drops each connection that found the standby read-only, so that writes succeed once the primary is back', async () => {
    const seen = await create();
    expect(seen.status).toBe(201);
    await cluster.untilCaughtUp();
    await loseThePrimary();
    await cluster.startPrimary();
    balancer.retarget(cluster.primaryPort);
    // A connection made to the standby refuses its first write (25006) and is dropped then, so there are at most as
    // many refusals as the pool has connections, whichever order the pool hands them out in (background work takes
    // some too); bursts as wide as the pool then meet every connection it still holds.
    const statuses: number[] = [];
    for (let index = 0; index < POOL_SIZE + 8; index += 1) statuses.push((await create()).status);
    let burst: number[];
    let bursts = 0;
    do {
      burst = (await Promise.all(Array.from({ length: POOL_SIZE }, () => create()))).map(
        (answer) => answer.status,
      );
      statuses.push(...burst);
      bursts += 1;
    } while (bursts <= POOL_SIZE && burst.some((status) => status !== 201));
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 503).length).toBeLessThanOrEqual(POOL_SIZE);
    expect(burst).toEqual(Array(POOL_SIZE).fill(201));
    await cluster.untilStreaming();
  });

  it('refuses writes with 503 and Retry-After until the promotion, redirects meanwhile, then writes, without a restart', async () => {
    const seen = await create();
    expect(seen.status).toBe(201);
    expect(await visit(seen.alias)).toBe(302);
    // The standby a balancer falls back to answers reads as of its replay: it must have the link to redirect it.
    await cluster.untilCaughtUp();

    await loseThePrimary();
    expect(await visit(seen.alias)).toBe(302);

    await cluster.promote();
    let written = await create();
    for (let tries = 0; written.status !== 201 && tries < 20; tries += 1) {
      expect(written.status).toBe(503);
      await sleep(250);
      written = await create();
    }
    expect(written.status).toBe(201);
    const after = await Promise.all(Array.from({ length: 12 }, () => create()));
    expect(after.map((answer) => answer.status)).toEqual(Array(12).fill(201));
    expect(await visit(written.alias)).toBe(302);
    expect(server.running).toBe(true);
  });
});
