import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { RedisStreamSink } from '../src/events/sinks/redis-stream.sink';
import { connectRedis } from '../src/limits/redis-connection';
import { RedisThrottlerStorage } from '../src/limits/redis-throttler-storage';
import { testEvents } from './support/event-brokers';
import { freePort } from './support/process';
import { sleep } from './support/sleep';

const run = promisify(execFile);
const here = existsSync('/usr/bin/redis-server') && existsSync('/usr/bin/redis-cli');

/*
 * A Redis Cluster of three masters of the test's own, on loopback ports, and the service's clients on it
 * (REDIS_CLUSTER=true): the limits' scripts, whose keys share a hash tag, and the event stream.
 */
(here ? describe : describe.skip)('Redis Cluster', () => {
  const nodes: ChildProcess[] = [];
  const ports: number[] = [];
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortlink-redis-cluster-'));
    for (let index = 0; index < 3; index += 1) {
      const port = await freePort();
      ports.push(port);
      nodes.push(
        spawn(
          'redis-server',
          [
            '--port',
            String(port),
            '--bind',
            '127.0.0.1',
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            '--dir',
            dir,
            '--save',
            '',
            '--appendonly',
            'no',
          ],
          { stdio: 'ignore' },
        ),
      );
    }
    for (const port of ports) {
      for (let tries = 0; tries < 50; tries += 1) {
        const answer = await run('redis-cli', ['-p', String(port), 'ping']).catch(() => ({ stdout: '' }));
        if (answer.stdout.trim() === 'PONG') break;
        await sleep(100);
      }
    }
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    // Every node, not only the first, must agree that the slots are served.
    for (let tries = 0; tries < 100; tries += 1) {
      const states = await Promise.all(
        ports.map((port) =>
          run('redis-cli', ['-p', String(port), 'cluster', 'info']).then((info) => info.stdout),
        ),
      );
      if (states.every((state) => state.includes('cluster_state:ok'))) return;
      await sleep(100);
    }
    throw new Error('The cluster did not come up');
  }, 30_000);

  afterAll(() => {
    for (const node of nodes) node.kill('SIGKILL');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** How many keys each node holds. */
  async function keysPerNode(): Promise<number[]> {
    return Promise.all(
      ports.map(async (port) => {
        const { stdout } = await run('redis-cli', ['-p', String(port), 'dbsize']);
        return Number(stdout.trim());
      }),
    );
  }

  it('counts the limits across the nodes, each hit and its block on the node of their hash tag', async () => {
    const client = connectRedis({
      redisUrl: `redis://127.0.0.1:${ports[0]}`,
      redisKeyPrefix: 'shortlink-test:',
      redisTimeoutMs: 1000,
      redisCluster: true,
    });
    try {
      await new Promise((resolve) => client.once('ready', resolve));
      const storage = new RedisThrottlerStorage(client);
      const keys = Array.from({ length: 30 }, (_, index) => `client-${index}`);
      for (const key of keys) {
        for (let hit = 1; hit <= 3; hit += 1) {
          const record = await storage.increment(key, 60_000, 2, 60_000, 'api');
          expect({ key, hits: record.totalHits, blocked: record.isBlocked }).toEqual({
            key,
            hits: Math.min(hit, 3),
            blocked: hit > 2,
          });
        }
      }
      // Thirty clients' keys land on every node: the client followed the slots, and each script found both its keys.
      expect((await keysPerNode()).every((count) => count > 0)).toBe(true);
    } finally {
      client.disconnect();
    }
  });

  it('adds events to the stream on the node of its slot', async () => {
    const sink = new RedisStreamSink({
      url: `redis://127.0.0.1:${ports[1]}`,
      maxLength: 1000,
      streamKey: 'shortlink:events:cluster-test',
      cluster: true,
    });
    const reader = new Redis.Cluster([{ host: '127.0.0.1', port: ports[2] }]);
    try {
      const events = testEvents(5);
      await sink.publish(events);
      const entries = await reader.xrange('shortlink:events:cluster-test', '-', '+');
      expect(entries.map(([, fields]) => fields[fields.indexOf('id') + 1])).toEqual(
        events.map((event) => event.id),
      );
    } finally {
      await sink.close();
      reader.disconnect();
    }
  });
});
