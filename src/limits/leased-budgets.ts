import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LimitsRedis } from './limits-redis';
import { LimitsStorage } from './limits-storage';
import type { ValueOrPromise } from '../common/value-or-promise';

/** A lease is at most this share of what the key has left in its window ... */
export const LEASE_SHARE = 32;
/** ... and at most this many hits, so that a flood still asks Redis now and then. */
export const LEASE_MOST = 100;

/** How often leases whose window has ended are forgotten. */
const SWEEP_MS = 10_000;

/**
 * Grants a part of a key's budget in its window, atomically: a share of what is left (LEASE_SHARE, at most
 * LEASE_MOST), yet at least as many as the requests waiting for it, and never more than is left. The window starts
 * with its first grant, as the throttler's windows do. Answers the hits granted and the window's milliseconds left.
 */
const LEASE_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
local granted = 0
if used < limit then
  local left = limit - used
  granted = math.max(math.floor(left / tonumber(ARGV[3])), tonumber(ARGV[5]), 1)
  granted = math.min(granted, tonumber(ARGV[4]), left)
  redis.call('INCRBY', KEYS[1], granted)
end
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], window)
  ttl = window
end
return { granted, ttl }
`;

interface LeaseCommand {
  leaseBudget(
    key: string,
    limit: number,
    windowMs: number,
    share: number,
    most: number,
    wanted: number,
  ): Promise<[number, number]>;
}

/** What this instance holds of one key's budget. */
interface Lease {
  /** Hits it may still let through until `endsAt`, every one of them counted in Redis already. */
  left: number;
  /** When the window of what is left ends, by this clock: never after Redis ends it. */
  endsAt: number;
  /** Redis had nothing left for the key: past what is left, every hit is refused until `endsAt`. */
  spent: boolean;
  /** Once `left` is down to this, more is asked for ahead of need: the hits of a busy key rarely wait. */
  refillAt: number;
  /** A request to Redis is under way: one at a time per key. */
  asking: boolean;
  /** Hits waiting for its answer, in their order. */
  waiting: ((wait: ValueOrPromise<number>) => void)[];
}

/**
 * A limit counted in Redis by leases, for the one limit on the visitors' hot path: an instance takes a part of a
 * key's budget at once and lets that many hits through without asking again, so that a client's visits cost a round
 * trip now and then rather than each one. Every hit let through was counted in Redis before, in the window it
 * belongs to: across any number of instances, a key never gets more than its limit in a window. What an instance
 * holds when the key's traffic stops or moves to another instance is stranded until the window ends: at most a
 * lease and a quarter, each at most a LEASE_SHARE-th of what the key had left (and LEASE_MOST). While Redis does
 * not answer, hits are counted by the throttler's storage in memory, as every other limit is.
 */
@Injectable()
export class LeasedBudgets implements OnApplicationShutdown {
  private readonly leases = new Map<string, Lease>();
  private readonly command: LeaseCommand | null;
  private readonly sweep: NodeJS.Timeout;

  constructor(
    private readonly redis: LimitsRedis,
    private readonly storage: LimitsStorage,
  ) {
    const client = redis.client;
    client?.defineCommand('leaseBudget', { numberOfKeys: 1, lua: LEASE_SCRIPT });
    this.command = client as unknown as LeaseCommand | null;
    this.sweep = setInterval(() => this.forgetEnded(), SWEEP_MS);
    this.sweep.unref();
  }

  /**
   * Counts a hit of `key`, allowed `limit` hits a window: 0 when it may go on, else the milliseconds until it may.
   * A number at once when this instance's lease decides, the usual case; a promise when Redis must be asked.
   */
  take(key: string, limit: number, windowMs: number, throttlerName: string): ValueOrPromise<number> {
    if (!this.redis.answering) return this.inMemory(key, limit, windowMs, throttlerName);
    const now = Date.now();
    let lease = this.leases.get(key);
    if (lease === undefined) {
      lease = { left: 0, endsAt: 0, spent: false, refillAt: 0, asking: false, waiting: [] };
      this.leases.set(key, lease);
    } else if (lease.endsAt <= now) {
      // What is left belongs to a window that has ended.
      lease.left = 0;
      lease.spent = false;
    }
    if (lease.waiting.length === 0) {
      if (lease.left > 0) {
        lease.left -= 1;
        if (lease.left <= lease.refillAt && !lease.asking && !lease.spent) {
          this.ask(key, lease, limit, windowMs, throttlerName);
        }
        return 0;
      }
      if (lease.spent) return lease.endsAt - now;
    }
    const asked = lease;
    return new Promise((resolve) => {
      asked.waiting.push(resolve);
      if (!asked.asking) this.ask(key, asked, limit, windowMs, throttlerName);
    });
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweep);
  }

  /** Asks Redis for a grant, at least as big as the hits waiting, and hands it out to them in their order. */
  private ask(key: string, lease: Lease, limit: number, windowMs: number, throttlerName: string): void {
    lease.asking = true;
    const sent = Date.now();
    this.command!.leaseBudget(
      `${key}:budget`,
      limit,
      windowMs,
      LEASE_SHARE,
      LEASE_MOST,
      lease.waiting.length,
    ).then(
      ([granted, ttl]) => {
        lease.asking = false;
        const now = Date.now();
        // Counted from when the question left, so that this window never outlasts Redis's.
        const endsAt = sent + ttl;
        if (now < lease.endsAt) {
          // The window of what is left has not ended, so Redis granted this in it too.
          lease.left += granted;
          lease.endsAt = Math.max(lease.endsAt, endsAt);
        } else {
          lease.left = granted;
          lease.endsAt = endsAt;
        }
        lease.spent = granted === 0;
        lease.refillAt = Math.floor(granted / 4);
        let served = 0;
        for (; served < lease.waiting.length && (lease.left > 0 || lease.spent); served += 1) {
          if (lease.left > 0) {
            lease.left -= 1;
            lease.waiting[served](0);
          } else {
            lease.waiting[served](Math.max(lease.endsAt - now, 1));
          }
        }
        lease.waiting.splice(0, served);
        if (lease.waiting.length > 0) this.ask(key, lease, limit, windowMs, throttlerName);
      },
      (error: unknown) => {
        lease.asking = false;
        this.redis.failed(error);
        for (const resolve of lease.waiting.splice(0)) {
          resolve(this.inMemory(key, limit, windowMs, throttlerName));
        }
      },
    );
  }

  private async inMemory(
    key: string,
    limit: number,
    windowMs: number,
    throttlerName: string,
  ): Promise<number> {
    const record = await this.storage.increment(key, windowMs, limit, windowMs, throttlerName);
    return record.isBlocked ? record.timeToBlockExpire * 1000 : 0;
  }

  private forgetEnded(): void {
    const now = Date.now();
    for (const [key, lease] of this.leases) {
      if (lease.endsAt <= now && !lease.asking) this.leases.delete(key);
    }
  }
}
