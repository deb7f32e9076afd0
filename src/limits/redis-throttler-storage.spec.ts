import Redis from 'ioredis';
import { describeWithRedis, redisScratch, testRedisUrl } from '../../test/support/redis';
import { sleep } from '../../test/support/sleep';
import { RedisThrottlerStorage } from './redis-throttler-storage';

const MINUTE = 60_000;

describeWithRedis('the throttler storage in Redis', () => {
  const scratch = redisScratch('throttler');
  let clients: Redis[];

  /** A storage on a client of its own, as each instance has, under the test's prefix. */
  function storage(): RedisThrottlerStorage {
    const client = new Redis(testRedisUrl()!, { keyPrefix: scratch.prefix, maxRetriesPerRequest: 1 });
    clients.push(client);
    return new RedisThrottlerStorage(client);
  }

  beforeEach(() => {
    clients = [];
  });
  afterEach(() => {
    for (const client of clients) client.disconnect();
  });

  it('counts the hits of a window, and blocks the first one over the limit for the block duration', async () => {
    const limits = storage();
    const records = [];
    for (let hit = 0; hit < 4; hit += 1)
      records.push(await limits.increment('k', MINUTE, 3, 2 * MINUTE, 'api'));
    expect(records.slice(0, 3)).toEqual(
      [1, 2, 3].map((totalHits) => ({ totalHits, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 })),
    );
    expect(records[3]).toEqual({ totalHits: 4, timeToExpire: 120, isBlocked: true, timeToBlockExpire: 120 });
    // Under the prefix, named as before, and each entry expires.
    const keys = [`${scratch.prefix}{k:api}:hits`, `${scratch.prefix}{k:api}:blocked`];
    expect((await scratch.redis.keys(`${scratch.prefix}*`)).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(await scratch.redis.pttl(key)).toBeGreaterThan(119_000);
  });

  it('refuses a hit while blocked without counting it, and starts a new window when the block ends', async () => {
    const limits = storage();
    const hit = () => limits.increment('k', MINUTE, 2, 300, 'password');
    expect((await hit()).isBlocked).toBe(false);
    expect((await hit()).isBlocked).toBe(false);
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 1 });
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 1 });
    await sleep(350);
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('starts a window with the first hit and ends it after the window: the hits then count from one', async () => {
    const limits = storage();
    const hit = () => limits.increment('k', 300, 5, 300, 'api');
    expect((await hit()).totalHits).toBe(1);
    expect((await hit()).totalHits).toBe(2);
    await sleep(350);
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('without a block duration, refuses the hits over the limit until the window ends', async () => {
    const limits = storage();
    const hit = () => limits.increment('k', 300, 1, 0, 'api');
    expect((await hit()).isBlocked).toBe(false);
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: true, timeToBlockExpire: 1 });
    expect(await scratch.redis.exists(`${scratch.prefix}{k:api}:blocked`)).toBe(0);
    await sleep(350);
    expect((await hit()).isBlocked).toBe(false);
  });

  it('counts each key and each throttler apart', async () => {
    const limits = storage();
    await limits.increment('a', MINUTE, 1, MINUTE, 'api');
    expect((await limits.increment('a', MINUTE, 1, MINUTE, 'api')).isBlocked).toBe(true);
    expect((await limits.increment('b', MINUTE, 1, MINUTE, 'api')).isBlocked).toBe(false);
    expect((await limits.increment('a', MINUTE, 1, MINUTE, 'visitor')).isBlocked).toBe(false);
  });

  it('lets exactly the limit through when instances count the same key at once', async () => {
    const instances = [storage(), storage(), storage()];
    const records = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        instances[index % 3].increment('k', MINUTE, 100, MINUTE, 'api'),
      ),
    );
    expect(records.filter((record) => !record.isBlocked)).toHaveLength(100);
    expect(
      records
        .filter((record) => !record.isBlocked)
        .map((record) => record.totalHits)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
  });

  it('loads its script again when Redis has forgotten it', async () => {
    const limits = storage();
    expect((await limits.increment('k', MINUTE, 5, MINUTE, 'api')).totalHits).toBe(1);
    await scratch.redis.script('FLUSH');
    expect((await limits.increment('k', MINUTE, 5, MINUTE, 'api')).totalHits).toBe(2);
  });
});
