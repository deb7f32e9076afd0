import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import { LimitsRedis } from './limits-redis';
import { RedisThrottlerStorage } from './redis-throttler-storage';

/**
 * The throttler's storage, behind its injection token, for every limit counted hit by hit (the API's, the password
 * attempts', the visitor limit's while Redis does not answer): with Redis, each hit is counted there, shared by
 * every instance (RedisThrottlerStorage); a hit Redis cannot count is counted in this instance's memory, by the
 * throttler's own memory storage, as every limit was before Redis: a request never fails for it, and is never let
 * through unlimited.
 */
@Injectable()
export class LimitsStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly memory = new ThrottlerStorageService();
  private readonly shared: RedisThrottlerStorage | null;

  constructor(private readonly redis: LimitsRedis) {
    this.shared = redis.client === null ? null : new RedisThrottlerStorage(redis.client);
  }

  /** The hit goes to Redis, or to memory as it is: this storage decides where, and counts nothing itself. */
  async increment(
    ...hit: Parameters<ThrottlerStorage['increment']>
  ): ReturnType<ThrottlerStorage['increment']> {
    if (this.shared !== null && this.redis.answering) {
      try {
        return await this.shared.increment(...hit);
      } catch (error) {
        this.redis.failed(error);
      }
    }
    this.redis.countedInMemory();
    return this.memory.increment(...hit);
  }

  /**
   * How much longer `key` is blocked under `throttlerName`, in milliseconds (0: not blocked), without counting a
   * hit: for a limit that counts only some outcomes (failed sign-ins) yet refuses every attempt while blocked.
   * Both places a hit may have been counted are asked.
   */
  async blockedFor(key: string, throttlerName: string): Promise<number> {
    let shared = 0;
    if (this.redis.client !== null && this.redis.answering) {
      try {
        shared = Math.max(0, await this.redis.client.pttl(`{${key}:${throttlerName}}:blocked`));
      } catch (error) {
        this.redis.failed(error);
      }
    }
    const record = this.memory.storage.get(key);
    const local = record?.isBlocked === true ? Math.max(0, record.blockExpiresAt - Date.now()) : 0;
    return Math.max(shared, local);
  }

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
  }
}
