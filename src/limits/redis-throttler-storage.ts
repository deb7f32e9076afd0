import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

/**
 * One hit of a key, counted in one step so that instances counting the same key at once never both pass its last
 * allowed hit. KEYS[1] holds the hits of the key's window, which starts with its first hit; KEYS[2] is there while
 * the key is blocked. ARGV: the window, the limit, how long a key over the limit is blocked (milliseconds).
 * Replies: hits, milliseconds until the window ends, 1 when blocked, milliseconds until the block ends.
 *
 * As the throttler's memory storage does: a hit while blocked is refused and not counted, and the first hit after
 * a block starts a new window; with no block duration, hits over the limit are refused until the window ends.
 */
const COUNT_HIT = `
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockFor = tonumber(ARGV[3])

local blockedFor = redis.call('PTTL', KEYS[2])
if blockedFor > 0 then
  local hits = tonumber(redis.call('GET', KEYS[1]) or 0)
  return {hits, math.max(redis.call('PTTL', KEYS[1]), 0), 1, blockedFor}
end

local hits = redis.call('INCR', KEYS[1])
local endsIn = redis.call('PTTL', KEYS[1])
if endsIn < 0 then
  redis.call('PEXPIRE', KEYS[1], window)
  endsIn = window
end
if hits <= limit then
  return {hits, endsIn, 0, 0}
end
if blockFor <= 0 then
  return {hits, endsIn, 1, endsIn}
end
redis.call('SET', KEYS[2], '1', 'PX', blockFor)
-- The count ends with the block: the first hit after it starts afresh.
redis.call('PEXPIRE', KEYS[1], blockFor)
return {hits, blockFor, 1, blockFor}
`;

interface CountHitCommand {
  throttlerCountHit(
    hitsKey: string,
    blockKey: string,
    window: number,
    limit: number,
    blockFor: number,
  ): Promise<unknown>;
}

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The throttler's storage in Redis, shared by every instance that uses the same Redis. A key's two entries share a
 * hash tag, so that a Redis cluster keeps them on one node, and are named as the storage this one replaced named
 * them, so that instances of either version count together while they run side by side. Every entry expires.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly command: CountHitCommand;

  constructor(client: Redis) {
    // Sent by its digest (EVALSHA), and in full only when Redis does not hold it yet.
    client.defineCommand('throttlerCountHit', { numberOfKeys: 2, lua: COUNT_HIT });
    this.command = client as unknown as CountHitCommand;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerRecord> {
    const entry = `{${key}:${throttlerName}}`;
    const reply = await this.command.throttlerCountHit(
      `${entry}:hits`,
      `${entry}:blocked`,
      ttl,
      limit,
      blockDuration,
    );
    if (!Array.isArray(reply) || reply.length !== 4 || !reply.every((value) => typeof value === 'number')) {
      throw new TypeError(`Unexpected reply to a throttler hit: ${JSON.stringify(reply)}`);
    }
    const [totalHits, timeToExpire, isBlocked, timeToBlockExpire] = reply;
    // The throttler's records are in seconds, rounded up, as its memory storage gives them.
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpire / 1000),
      isBlocked: isBlocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpire / 1000),
    };
  }
}
