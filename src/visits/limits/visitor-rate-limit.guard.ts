import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientKey } from '../../common/client-address';
import { visitsConfig, type VisitsConfig } from '../../config/app-config';
import { LeasedBudgets } from '../../limits/leased-budgets';
import { Pages, retryAfter } from '../pages/pages';
import { views } from '../pages/views';
import type { ValueOrPromise } from '../../common/value-or-promise';

const WINDOW_MS = 60_000;

/** The most addresses whose keys are remembered: a flood of new ones replaces them. */
const KEY_MEMO_SIZE = 10_000;

/**
 * Requests per minute per client address (IPv6: per /64) on the visitor routes, counted where the other limits are
 * (shared by the instances through Redis, or in memory): no person reaches it, a script hammering links waits until
 * the minute ends. In Redis it is counted by leases, so that most visits are decided without a round trip.
 */
@Injectable()
export class VisitorRateLimit {
  /** The key of each address seen lately: parsing an address costs more than the rest of a check in a lease. */
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly budgets: LeasedBudgets,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
  ) {}

  get enabled(): boolean {
    return this.config.visitorRateLimitPerMinute > 0;
  }

  /**
   * Counts a request of the address: 0 when it may go on, else how many milliseconds it must wait. A number at once
   * when this instance can decide alone; a promise when the shared store must be asked.
   */
  hit(address: string | undefined): ValueOrPromise<number> {
    const limit = this.config.visitorRateLimitPerMinute;
    if (limit === 0) return 0;
    return this.budgets.take(this.keyOf(address ?? ''), limit, WINDOW_MS, 'visitor');
  }

  private keyOf(address: string): string {
    let key = this.keys.get(address);
    if (key === undefined) {
      key = `visitor:${clientKey(address === '' ? undefined : address)}`;
      if (this.keys.size >= KEY_MEMO_SIZE) this.keys.clear();
      this.keys.set(address, key);
    }
    return key;
  }
}

/** The visitor limit on the Nest routes: the 429 page past it. */
@Injectable()
export class VisitorRateLimitGuard implements CanActivate {
  constructor(
    private readonly limit: VisitorRateLimit,
    private readonly pages: Pages,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const wait = await this.limit.hit(http.getRequest<Request>().ip);
    if (wait === 0) return true;
    const { header, waitMs } = retryAfter(wait);
    const [request, response] = [http.getRequest<Request>(), http.getResponse<Response>()];
    this.pages.write(request, response, 429, (t) => views.tooManyRequests(t, waitMs), header);
    return false;
  }
}
