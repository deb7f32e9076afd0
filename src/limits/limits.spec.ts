import { Logger } from '@nestjs/common';
import { createServer, type AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { describeWithRedis, redisScratch, testRedisUrl } from '../../test/support/redis';
import { sleep } from '../../test/support/sleep';
import { TcpProxy } from '../../test/support/tcp-proxy';
import { LeasedBudgets } from './leased-budgets';
import { LimitsRedis, LimitsStore } from './limits-redis';
import { LimitsStorage } from './limits-storage';
import { connectRedis } from './redis-connection';

const TIMEOUT_MS = 150;
const MINUTE = 60_000;

/** The limits of one instance, as LimitsModule makes them. */
interface Instance {
  redis: LimitsRedis;
  storage: LimitsStorage;
  budgets: LeasedBudgets;
  registry: Registry;
  close(): Promise<void>;
}

const instances: Instance[] = [];

function instance(url: string | null, keyPrefix = 'unused:'): Instance {
  const registry = new Registry();
  const client =
    url === null
      ? null
      : connectRedis({ redisUrl: url, redisKeyPrefix: keyPrefix, redisTimeoutMs: TIMEOUT_MS });
  const redis = new LimitsRedis(client, url ?? '', registry);
  const storage = new LimitsStorage(redis);
  const budgets = new LeasedBudgets(redis, storage);
  const made: Instance = {
    redis,
    storage,
    budgets,
    registry,
    async close() {
      budgets.onApplicationShutdown();
      storage.onApplicationShutdown();
      await redis.onApplicationShutdown();
    },
  };
  instances.push(made);
  return made;
}

async function started(url: string | null, keyPrefix?: string): Promise<Instance> {
  const made = instance(url, keyPrefix);
  await made.redis.onModuleInit();
  return made;
}

/** Whether each of `count` hits of `key` was let through by the throttler storage, allowed `limit` a minute. */
async function hits(limits: Instance, key: string, count: number, limit: number): Promise<boolean[]> {
  const passed: boolean[] = [];
  for (let hit = 0; hit < count; hit += 1) {
    passed.push(!(await limits.storage.increment(key, MINUTE, limit, MINUTE, 'test')).isBlocked);
  }
  return passed;
}

/** The value of `shortlink_limits_store` for each store. */
async function storeGauge(limits: Instance): Promise<Record<string, number>> {
  const metric = await limits.registry.getSingleMetric('shortlink_limits_store')!.get();
  return Object.fromEntries(metric.values.map((value) => [String(value.labels.store), value.value]));
}

async function fallbacks(limits: Instance): Promise<number> {
  const metric = await limits.registry.getSingleMetric('shortlink_limits_memory_fallbacks_total')!.get();
  return metric.values[0]?.value ?? 0;
}

/** The answers of hits taken together, whether each was decided at once or had to ask Redis. */
function answers(takes: (number | Promise<number>)[]): Promise<number[]> {
  return Promise.all(takes.map((take) => Promise.resolve(take)));
}

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await sleep(20);
  return condition();
}

let logged: jest.SpyInstance[];

/** What the limits logged at `level`. */
function lines(level: 'log' | 'warn'): string[] {
  const spy = logged[level === 'log' ? 0 : 1];
  return spy.mock.calls
    .filter((_call, index) => (spy.mock.contexts[index] as { context?: string }).context === 'Limits')
    .map((call) => String(call[0]));
}

beforeEach(() => {
  logged = (['log', 'warn'] as const).map((level) =>
    jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined),
  );
});

async function closeInstances(): Promise<void> {
  await Promise.all(instances.splice(0).map((made) => made.close()));
}

afterEach(async () => {
  await closeInstances();
  for (const spy of logged) spy.mockRestore();
});

describe('the limits without REDIS_URL', () => {
  it("count in this instance's memory alone, and say so in the metric", async () => {
    const [first, second] = [await started(null), await started(null)];
    expect(first.redis.store).toBe(LimitsStore.Memory);
    expect(await storeGauge(first)).toEqual({ redis: 0, memory: 1 });
    expect(await hits(first, 'k', 4, 3)).toEqual([true, true, true, false]);
    // Another instance has a count of its own.
    expect(await hits(second, 'k', 4, 3)).toEqual([true, true, true, false]);
    const takes = [1, 2, 3, 4].map(() => first.budgets.take('visitor:a', 3, MINUTE, 'visitor'));
    expect(await answers(takes)).toEqual([0, 0, 0, MINUTE]);
    expect(await fallbacks(first)).toBe(0);
    expect([...lines('log'), ...lines('warn')]).toEqual([]);
  });
});

describe('the limits with a Redis that cannot be reached', () => {
  it('start within a second, count in memory, never fail a check, and warn once without the password', async () => {
    const port = await closedPort();
    const url = `redis://limits:s3cretPassw0rd@127.0.0.1:${port}/0`;
    const begun = Date.now();
    const limits = await started(url, 'shortlink-test:');
    expect(Date.now() - begun).toBeLessThan(1_500);
    expect(limits.redis.store).toBe(LimitsStore.Memory);

    expect(await hits(limits, 'k', 4, 3)).toEqual([true, true, true, false]);
    expect(await answers([1, 2].map(() => limits.budgets.take('visitor:a', 1, MINUTE, 'visitor')))).toEqual([
      0,
      MINUTE,
    ]);
    expect(await fallbacks(limits)).toBe(6);
    // The client goes on trying in the background; the outage is told once.
    await sleep(600);
    const warnings = lines('warn');
    expect(warnings).toEqual([expect.stringContaining(`Redis at 127.0.0.1:${port} does not answer`)]);
    expect(warnings[0]).toContain('own memory');
    expect(warnings[0]).not.toContain('s3cretPassw0rd');
    expect(warnings[0]).not.toContain('limits:');
    expect(await storeGauge(limits)).toEqual({ redis: 0, memory: 1 });
  });
});

describeWithRedis('the limits in Redis', () => {
  const url = testRedisUrl()!;
  const scratch = redisScratch('limits');

  it('are shared by the instances: a key gets its limit across both, and not one hit more', async () => {
    const [first, second] = [await started(url, scratch.prefix), await started(url, scratch.prefix)];
    expect([first.redis.store, second.redis.store]).toEqual([LimitsStore.Redis, LimitsStore.Redis]);
    expect(await storeGauge(first)).toEqual({ redis: 1, memory: 0 });
    expect(lines('log')).toEqual([
      expect.stringMatching(/^Limits are counted in Redis at [^ ]+:\d+, shared by every instance/),
      expect.stringMatching(/^Limits are counted in Redis at/),
    ]);

    const passed: boolean[] = [];
    for (let hit = 0; hit < 8; hit += 1)
      passed.push(...(await hits(hit % 2 === 0 ? first : second, 'k', 1, 5)));
    expect(passed).toEqual([true, true, true, true, true, false, false, false]);
    // Under the prefix, and nowhere else for this key.
    expect(await scratch.redis.keys(`${scratch.prefix}*`)).toEqual(
      expect.arrayContaining([`${scratch.prefix}{k:test}:hits`]),
    );
    expect(await scratch.redis.exists('{k:test}:hits')).toBe(0);
    expect(await fallbacks(first)).toBe(0);
  });

  it('never let more hits than the limit through leases, however they are spread and however many at once', async () => {
    const [first, second] = [await started(url, scratch.prefix), await started(url, scratch.prefix)];
    const takes = Array.from({ length: 1_000 }, (_, index) =>
      (index % 3 === 0 ? first : second).budgets.take('visitor:flood', 300, MINUTE, 'visitor'),
    );
    const waits = await answers(takes);
    expect(waits.filter((wait) => wait === 0)).toHaveLength(300);
    for (const wait of waits.filter((wait) => wait > 0)) expect(wait).toBeLessThanOrEqual(MINUTE);
    expect(await scratch.redis.get(`${scratch.prefix}visitor:flood:budget`)).toBe('300');
    // Refused from then on, on both, by what each already knows.
    expect(first.budgets.take('visitor:flood', 300, MINUTE, 'visitor')).toBeGreaterThan(0);
    expect(second.budgets.take('visitor:flood', 300, MINUTE, 'visitor')).toBeGreaterThan(0);
  });

  it('never let more hits than the limit through when they come one by one to each instance in turn', async () => {
    const [first, second] = [await started(url, scratch.prefix), await started(url, scratch.prefix)];
    const passed: number[] = [];
    for (let hit = 0; hit < 150; hit += 1) {
      passed.push(
        await (hit % 2 === 0 ? first : second).budgets.take('visitor:turns', 100, MINUTE, 'visitor'),
      );
    }
    expect(passed.filter((wait) => wait === 0)).toHaveLength(100);
    expect(passed.slice(100).every((wait) => wait > 0)).toBe(true);
  });

  it('ask Redis now and then, not for every hit, for a busy key', async () => {
    const limits = await started(url, scratch.prefix);
    const asked = jest.spyOn(LeasedBudgets.prototype as unknown as { ask: () => void }, 'ask');
    let decidedAtOnce = 0;
    for (let hit = 0; hit < 1_000; hit += 1) {
      const wait = limits.budgets.take('visitor:busy', 1_000_000, MINUTE, 'visitor');
      if (!(wait instanceof Promise)) decidedAtOnce += 1;
      expect(await wait).toBe(0);
    }
    // A lease of 100 hits at most, the next one asked for ahead of need.
    expect(asked.mock.calls.length).toBeGreaterThanOrEqual(10);
    expect(asked.mock.calls.length).toBeLessThanOrEqual(15);
    expect(decidedAtOnce).toBeGreaterThanOrEqual(980);
    asked.mockRestore();
  });

  it('give a key a fresh budget when its window ends, and not before', async () => {
    const limits = await started(url, scratch.prefix);
    const take = () => limits.budgets.take('visitor:window', 3, 500, 'visitor');
    expect([await take(), await take(), await take()]).toEqual([0, 0, 0]);
    const refused = await take();
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(500);
    await sleep(550);
    expect([await take(), await take(), await take()]).toEqual([0, 0, 0]);
    expect(await take()).toBeGreaterThan(0);
  });

  describe('through a proxy that can cut or stall the connection', () => {
    let proxy: TcpProxy;
    beforeEach(async () => {
      const { hostname, port } = new URL(url);
      proxy = await TcpProxy.start({ host: hostname, port: Number(port || 6379) });
    });
    afterEach(async () => {
      await closeInstances();
      await proxy.close();
    });

    it('count in memory while Redis is cut off, per instance and never failing, then are shared again', async () => {
      const cutOff = await started(proxy.urlFor(url), scratch.prefix);
      const other = await started(url, scratch.prefix);
      expect(await hits(cutOff, 'k', 2, 5)).toEqual([true, true]);

      proxy.cut();
      // This instance alone, from a count of its own: 5, then refused.
      expect(await hits(cutOff, 'k', 6, 5)).toEqual([true, true, true, true, true, false]);
      expect(cutOff.redis.store).toBe(LimitsStore.Memory);
      expect(await storeGauge(cutOff)).toEqual({ redis: 0, memory: 1 });
      expect(await cutOff.budgets.take('visitor:a', 5, MINUTE, 'visitor')).toBe(0);
      // The other instance still counts in Redis, where 2 were counted.
      expect(await hits(other, 'k', 1, 5)).toEqual([true]);

      proxy.restore();
      expect(await until(() => cutOff.redis.store === LimitsStore.Redis, 5_000)).toBe(true);
      // Shared again: 3 counted in Redis, so 2 more on either instance.
      expect(await hits(cutOff, 'k', 3, 5)).toEqual([true, true, false]);
      expect(await hits(other, 'k', 1, 5)).toEqual([false]);
      expect(lines('warn')).toEqual([expect.stringContaining('does not answer')]);
      expect(lines('log')).toContainEqual(
        expect.stringContaining('answers again: the limits are shared again'),
      );
      expect(await fallbacks(cutOff)).toBe(7);
    });

    it('count in memory while Redis stalls, no check waiting longer than the timeout, then are shared again', async () => {
      const stalled = await started(proxy.urlFor(url), scratch.prefix);
      expect(await hits(stalled, 'k', 1, 5)).toEqual([true]);

      proxy.freeze();
      let begun = Date.now();
      expect(await hits(stalled, 'k', 1, 5)).toEqual([true]);
      expect(Date.now() - begun).toBeLessThan(TIMEOUT_MS + 250);
      expect(stalled.redis.store).toBe(LimitsStore.Memory);
      begun = Date.now();
      expect(await hits(stalled, 'k', 5, 5)).toEqual([true, true, true, true, false]);
      const wait = stalled.budgets.take('visitor:a', 5, MINUTE, 'visitor');
      expect(await wait).toBe(0);
      expect(Date.now() - begun).toBeLessThan(50);

      proxy.restore();
      expect(await until(() => stalled.redis.store === LimitsStore.Redis, 5_000)).toBe(true);
      expect(lines('warn')).toEqual([expect.stringContaining('Command timed out')]);
      // Shared again: the count in Redis is the one hit before the stall, and whatever the stall let through late.
      const count = Number(await scratch.redis.get(`${scratch.prefix}{k:test}:hits`));
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(2);
      await hits(stalled, 'k', 1, 5);
      expect(Number(await scratch.redis.get(`${scratch.prefix}{k:test}:hits`))).toBe(count + 1);
    });
  });

  it('close the connection on shutdown, however often asked', async () => {
    const limits = await started(url, scratch.prefix);
    await limits.close();
    await limits.close();
    expect(limits.redis.client!.status).toBe('end');
    expect(lines('warn')).toEqual([]);
  });
});
