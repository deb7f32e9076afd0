import { LimitsRedis, LimitsStore } from '../src/limits/limits-redis';
import { MetricsService } from '../src/metrics/metrics.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { deleteKeys, describeWithRedis, testRedisUrl, uniqueKeyPrefix } from './support/redis';
import { sleep } from './support/sleep';
import { TcpProxy } from './support/tcp-proxy';
import { createLink, UA } from './support/visitors';

const LIMIT = 5;
// Long enough that a loaded machine (the whole suite on two cores) answers a healthy Redis within it.
const TIMEOUT_MS = 300;

/**
 * The limits of an app whose Redis goes away and comes back, through a proxy that cuts or stalls the connection:
 * every request is answered, within this instance's own limits while Redis is away, never with a 500, and the
 * limits are shared again once it is back.
 */
describeWithRedis('the limits when Redis goes away and comes back', () => {
  const url = testRedisUrl()!;
  const prefix = uniqueKeyPrefix('outage');
  let proxy: TcpProxy;
  let t: TestApp;
  let account: TestAccount;
  let alias: string;

  beforeAll(async () => {
    const { hostname, port } = new URL(url);
    proxy = await TcpProxy.start({ host: hostname, port: Number(port || 6379) });
    t = await createTestApp({
      REDIS_URL: proxy.urlFor(url),
      REDIS_KEY_PREFIX: prefix,
      REDIS_TIMEOUT_MS: String(TIMEOUT_MS),
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      VISITOR_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      TRUST_PROXY: 'true',
    });
  });
  beforeEach(async () => {
    proxy.restore();
    expect(await until(() => t.app.get(LimitsRedis).store === LimitsStore.Redis, 5_000)).toBe(true);
    account = await createAccount(t);
    // A link made outside the API, so that the key's budget is the test's alone.
    alias = (await createLink(t, await createAccount(t), { url: 'https://example.com/landing' })).alias;
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await deleteKeys(prefix);
  });

  async function until(condition: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!condition() && Date.now() < deadline) await sleep(20);
    return condition();
  }

  async function apiCalls(count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let call = 0; call < count; call += 1) {
      statuses.push((await t.http().get('/api/v1/account').set('Authorization', account.auth)).status);
    }
    return statuses;
  }

  async function visits(count: number, address: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let visit = 0; visit < count; visit += 1) {
      const response = await t
        .http()
        .get(`/${alias}`)
        .set('User-Agent', UA.macSafari)
        .set('X-Forwarded-For', address);
      statuses.push(response.status);
    }
    return statuses;
  }

  async function storeMetric(): Promise<string> {
    const text = await t.app.get(MetricsService).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('shortlink_limits_store{'))
      .sort()
      .join('\n');
  }

  it("answers every request while Redis is cut off, within this instance's limits, then shares them again", async () => {
    expect(await apiCalls(2)).toEqual([200, 200]);
    expect(await visits(2, '198.51.100.31')).toEqual([302, 302]);
    expect(await storeMetric()).toBe(
      'shortlink_limits_store{store="memory"} 0\nshortlink_limits_store{store="redis"} 1',
    );

    proxy.cut();
    // Counted in this instance's memory from nothing: the whole limit, then refused; never a 500.
    expect(await apiCalls(LIMIT + 1)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await visits(LIMIT + 1, '198.51.100.31')).toEqual([302, 302, 302, 302, 302, 429]);
    expect(await storeMetric()).toBe(
      'shortlink_limits_store{store="memory"} 1\nshortlink_limits_store{store="redis"} 0',
    );

    proxy.restore();
    expect(await until(() => t.app.get(LimitsRedis).store === LimitsStore.Redis, 5_000)).toBe(true);
    // Shared again: Redis counted 2 of each before the cut, so 3 more.
    expect(await apiCalls(LIMIT - 1)).toEqual([200, 200, 200, 429]);
    expect(await visits(LIMIT - 1, '198.51.100.31')).toEqual([302, 302, 302, 429]);
  });

  it('answers every request while Redis stalls, none waiting much longer than REDIS_TIMEOUT_MS', async () => {
    expect(await apiCalls(1)).toEqual([200]);
    proxy.freeze();
    const begun = Date.now();
    expect(await apiCalls(3)).toEqual([200, 200, 200]);
    expect(await visits(3, '198.51.100.32')).toEqual([302, 302, 302]);
    // One check waits for the timeout; the others are counted in memory at once.
    expect(Date.now() - begun).toBeLessThan(2 * TIMEOUT_MS + 500);
    expect(t.app.get(LimitsRedis).store).toBe(LimitsStore.Memory);
  });
});
