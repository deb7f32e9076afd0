export interface DeliveryLimits {
  /** Deliveries under way at once in this instance (`WEBHOOK_CONCURRENCY`). */
  concurrency: number;
  /** Deliveries under way at once to one webhook. */
  perWebhook: number;
}

/** Two at once per webhook: a new event can go out beside a retry, and a dead receiver holds two slots at most. */
export const DELIVERIES_PER_WEBHOOK = 2;

/** One delivery's hold on a slot, given back once, when the delivery has ended whatever its outcome. */
export interface DeliverySlot {
  readonly webhookId: number;
  /** Gives the slot back; calling it again does nothing. */
  release(): void;
}

/**
 * The slots for webhook deliveries in this instance: at most `concurrency` under way at once, and at most
 * `perWebhook` of them to one webhook, so that one slow or dead receiver cannot take every slot.
 *
 * A worker that claims due deliveries from the database asks first: `available` for how many it may claim in
 * all, `saturated()` for the webhooks whose deliveries it must leave (or `freeFor(ids)` for how many each may
 * start); then it takes a slot with `tryAcquire` for each delivery claimed and releases it when the delivery ends.
 * Only `tryAcquire` takes slots: the claiming loop, and a ping sent through the API (refused with a 429 when none is
 * free). Nothing waits in here: a claimed delivery refused a slot (a ping took it meanwhile) goes back to the
 * database, still due.
 */
export class DeliverySlots {
  private inUse = 0;
  private readonly inUseFor = new Map<number, number>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly limits: DeliveryLimits) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
      }
    }
  }

  /** Deliveries this instance may start now, to any webhooks. */
  get available(): number {
    return this.limits.concurrency - this.inUse;
  }

  /** Deliveries under way now. */
  get running(): number {
    return this.inUse;
  }

  /** The webhooks with deliveries under way: a claim takes only what their limit leaves ({@link freeFor}). */
  busy(): number[] {
    return [...this.inUseFor.keys()];
  }

  /** The webhooks with every one of their slots taken: a claim leaves their deliveries for later. */
  saturated(): number[] {
    return [...this.inUseFor]
      .filter(([, count]) => count >= this.limits.perWebhook)
      .map(([webhookId]) => webhookId);
  }

  /**
   * How many deliveries each of these webhooks may start now: what its own limit leaves, never more than
   * `available`. Their sum may exceed `available`: the worker claims no more than `available` in all.
   */
  freeFor(webhookIds: Iterable<number>): Map<number, number> {
    const free = new Map<number, number>();
    for (const webhookId of webhookIds) {
      free.set(webhookId, Math.min(this.available, this.roomFor(webhookId)));
    }
    return free;
  }

  /** A slot for one delivery to `webhookId`, or null when the instance or that webhook is at its limit. */
  tryAcquire(webhookId: number): DeliverySlot | null {
    if (this.available <= 0 || this.roomFor(webhookId) <= 0) return null;
    this.inUse += 1;
    this.inUseFor.set(webhookId, (this.inUseFor.get(webhookId) ?? 0) + 1);
    let released = false;
    return {
      webhookId,
      release: () => {
        if (released) return;
        released = true;
        this.give(webhookId);
      },
    };
  }

  /** Resolves once no slot is held: shutdown waits here for the deliveries under way, each bounded by its timeout. */
  idle(): Promise<void> {
    if (this.inUse === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private roomFor(webhookId: number): number {
    return this.limits.perWebhook - (this.inUseFor.get(webhookId) ?? 0);
  }

  private give(webhookId: number): void {
    this.inUse -= 1;
    const left = (this.inUseFor.get(webhookId) ?? 1) - 1;
    // Only webhooks with a delivery under way are kept: the map stays as small as the slots.
    if (left === 0) this.inUseFor.delete(webhookId);
    else this.inUseFor.set(webhookId, left);
    if (this.inUse === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}
