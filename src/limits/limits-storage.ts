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

  onApplicationShutdown(): void {
    this.memory.onApplicationShutdown();
  }
}
