import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';

/**
 * The Redis of the tests that need one: REDIS_URL, as CI sets it for the test step. Without it those tests are
 * skipped, saying so, and every other test runs with the limits in memory.
 */
export function testRedisUrl(): string | undefined {
  const url = process.env.REDIS_URL?.trim();
  return url === undefined || url === '' ? undefined : url;
}

/** `describe` when REDIS_URL is set; else `describe.skip`, with one line on stderr saying why. */
export function describeWithRedis(name: string, tests: () => void): void {
  if (testRedisUrl() !== undefined) {
    describe(name, tests);
    return;
  }
  // Said plainly, so that a skipped test is never mistaken for a passing one.
  process.stderr.write(
    `skipped without REDIS_URL (a Redis server, such as redis://127.0.0.1:6379): ${name}\n`,
  );
  describe.skip(name, tests);
}

/** A key prefix no other test, run or program uses: every key a test writes begins with it. */
export function uniqueKeyPrefix(label: string): string {
  return `${process.env.REDIS_KEY_PREFIX ?? 'shortlink-test:'}${label}-${process.pid}-${randomBytes(4).toString('hex')}:`;
}

/** A client of the tests' Redis, for looking at what the service wrote. */
export function testRedis(): Redis {
  return new Redis(testRedisUrl()!, { lazyConnect: false, maxRetriesPerRequest: 1 });
}

/** A test's own keys in the tests' Redis: see {@link redisScratch}. */
export interface RedisScratch {
  /** The current test's key prefix: a new one for each test. */
  readonly prefix: string;
  /** A client of the tests' Redis for the whole block, for looking at what a test wrote. */
  readonly redis: Redis;
}

/**
 * Inside a {@link describeWithRedis} block: each test gets a key prefix of its own, whose keys are deleted after
 * it, and the block a client to look with, closed after it. Read the fields inside the tests and hooks.
 */
export function redisScratch(label: string): RedisScratch {
  let prefix: string | undefined;
  let redis: Redis | undefined;
  beforeAll(() => {
    redis = testRedis();
  });
  beforeEach(() => {
    prefix = uniqueKeyPrefix(label);
  });
  afterEach(async () => {
    if (prefix !== undefined) await deleteKeys(prefix);
  });
  afterAll(() => {
    redis?.disconnect();
  });
  return {
    get prefix() {
      if (prefix === undefined) throw new Error('redisScratch: the prefix is read inside a test');
      return prefix;
    },
    get redis() {
      if (redis === undefined) throw new Error('redisScratch: the client is read inside a test');
      return redis;
    },
  };
}

/** Deletes every key that begins with `prefix`; returns how many. */
export async function deleteKeys(prefix: string, url = testRedisUrl()): Promise<number> {
  if (url === undefined) return 0;
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** The keys that begin with `prefix`, without it. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...found.map((key) => key.slice(prefix.length)));
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}
