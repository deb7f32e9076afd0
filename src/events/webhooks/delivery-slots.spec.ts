import { DELIVERIES_PER_WEBHOOK, DeliverySlots, type DeliverySlot } from './delivery-slots';

/** Deliveries under way, overall and per webhook, and the most seen at once. */
class Tally {
  now = 0;
  peak = 0;
  private readonly nowFor = new Map<number, number>();
  readonly peakFor = new Map<number, number>();

  start(webhookId: number): void {
    this.now += 1;
    this.peak = Math.max(this.peak, this.now);
    const count = (this.nowFor.get(webhookId) ?? 0) + 1;
    this.nowFor.set(webhookId, count);
    this.peakFor.set(webhookId, Math.max(this.peakFor.get(webhookId) ?? 0, count));
  }

  end(webhookId: number): void {
    this.now -= 1;
    this.nowFor.set(webhookId, this.nowFor.get(webhookId)! - 1);
  }
}

/** A delivery that takes a few turns of the event loop, some more than others. */
async function briefly(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A claiming worker: it asks the slots how many it may start and which webhooks to leave, "claims" that many of
 * the due deliveries (webhook ids, oldest first), takes a slot for each, and asks again once one has ended.
 */
async function work(
  slots: DeliverySlots,
  due: number[],
  deliver: (webhookId: number) => Promise<void>,
): Promise<{ refused: number }> {
  let refused = 0;
  let ended: () => void = () => undefined;
  const running = new Set<Promise<void>>();
  while (due.length > 0 || running.size > 0) {
    const room = slots.freeFor(new Set(due));
    let claimable = slots.available;
    for (let index = 0; index < due.length && claimable > 0;) {
      const webhookId = due[index];
      if ((room.get(webhookId) ?? 0) === 0) {
        index += 1;
        continue;
      }
      due.splice(index, 1);
      room.set(webhookId, room.get(webhookId)! - 1);
      claimable -= 1;
      const slot = slots.tryAcquire(webhookId);
      if (slot === null) {
        refused += 1;
        continue;
      }
      const task: Promise<void> = deliver(webhookId).finally(() => {
        slot.release();
        running.delete(task);
        ended();
      });
      running.add(task);
    }
    if (running.size === 0) break;
    await new Promise<void>((resolve) => (ended = resolve));
  }
  return { refused };
}

describe('DeliverySlots', () => {
  it('holds a burst to N deliveries at once overall and M per webhook, and reaches both', async () => {
    const slots = new DeliverySlots({ concurrency: 5, perWebhook: 2 });
    const tally = new Tally();
    // 300 deliveries to 8 webhooks, webhook 1 with most of them.
    const due = Array.from({ length: 300 }, (_, index) => (index % 3 === 0 ? (index % 8) + 1 : 1));
    let delivered = 0;

    const { refused } = await work(slots, [...due], async (webhookId) => {
      tally.start(webhookId);
      await briefly(1 + (delivered % 4));
      tally.end(webhookId);
      delivered += 1;
    });

    expect(refused).toBe(0);
    expect(delivered).toBe(300);
    expect(tally.peak).toBe(5);
    expect(Math.max(...tally.peakFor.values())).toBe(2);
    expect(tally.peakFor.get(1)).toBe(2);
    expect([slots.running, slots.available, slots.saturated()]).toEqual([0, 5, []]);
  });

  it('refuses past either limit even to callers that never ask first', async () => {
    const slots = new DeliverySlots({ concurrency: 4, perWebhook: 2 });
    const tally = new Tally();
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        const webhookId = index < 50 ? 1 : 2 + (index % 3);
        const slot = slots.tryAcquire(webhookId);
        if (slot === null) return 'refused';
        tally.start(webhookId);
        await briefly(3);
        tally.end(webhookId);
        slot.release();
        return 'sent';
      }),
    );

    // All 100 arrive before any ends: webhook 1's 50 get 2 slots, then webhooks 4 and 2 one each, and it is full.
    expect(results.filter((result) => result === 'sent')).toHaveLength(4);
    expect(tally.peak).toBe(4);
    expect(tally.peakFor).toEqual(
      new Map([
        [1, 2],
        [4, 1],
        [2, 1],
      ]),
    );
  });

  it('lets the other webhooks through while a dead receiver holds its M slots', async () => {
    const slots = new DeliverySlots({ concurrency: 4, perWebhook: DELIVERIES_PER_WEBHOOK });
    const hung: (() => void)[] = [];
    const deliveredTo: number[] = [];
    const due = Array.from({ length: 40 }, (_, index) => (index < 20 ? 1 : 2 + (index % 3)));

    const worker = work(slots, [...due], async (webhookId) => {
      // Webhook 1's receiver never answers (until the test lets it go).
      if (webhookId === 1) await new Promise<void>((resolve) => hung.push(resolve));
      else await briefly(2);
      deliveredTo.push(webhookId);
    });
    while (deliveredTo.length < 20) await briefly(1);

    expect(deliveredTo.filter((webhookId) => webhookId !== 1)).toHaveLength(20);
    expect(hung).toHaveLength(DELIVERIES_PER_WEBHOOK);
    expect(slots.saturated()).toEqual([1]);
    expect(slots.available).toBe(4 - DELIVERIES_PER_WEBHOOK);
    expect(slots.freeFor([1, 2])).toEqual(
      new Map([
        [1, 0],
        [2, DELIVERIES_PER_WEBHOOK],
      ]),
    );

    while (hung.length > 0) {
      hung.splice(0).forEach((resolve) => resolve());
      await briefly(3);
    }
    await worker;
    expect(deliveredTo).toHaveLength(40);
  });

  it('never offers a webhook more than is free overall', () => {
    const slots = new DeliverySlots({ concurrency: 3, perWebhook: 2 });
    slots.tryAcquire(7);
    slots.tryAcquire(8);

    expect(slots.available).toBe(1);
    expect(slots.freeFor([7, 9])).toEqual(
      new Map([
        [7, 1],
        [9, 1],
      ]),
    );
    slots.tryAcquire(9);
    expect(slots.freeFor([7, 9])).toEqual(
      new Map([
        [7, 0],
        [9, 0],
      ]),
    );
    expect(slots.tryAcquire(10)).toBeNull();
  });

  it('gives a slot back once, however often it is released', () => {
    const slots = new DeliverySlots({ concurrency: 2, perWebhook: 2 });
    const first = slots.tryAcquire(1)!;
    slots.tryAcquire(1);

    first.release();
    first.release();

    expect([slots.running, slots.available, slots.saturated()]).toEqual([1, 1, []]);
    expect(slots.tryAcquire(1)).not.toBeNull();
    expect(slots.tryAcquire(1)).toBeNull();
  });

  it('is idle at once when nothing runs, and once the last slot is given back', async () => {
    const slots = new DeliverySlots({ concurrency: 2, perWebhook: 1 });
    await expect(slots.idle()).resolves.toBeUndefined();
    const held: DeliverySlot[] = [slots.tryAcquire(1)!, slots.tryAcquire(2)!];
    let idle = false;
    void slots.idle().then(() => (idle = true));

    held[0].release();
    await briefly(2);
    expect(idle).toBe(false);
    held[1].release();
    await briefly(2);
    expect(idle).toBe(true);
  });

  it.each([
    [{ concurrency: 0, perWebhook: 2 }, 'concurrency'],
    [{ concurrency: 4, perWebhook: 0 }, 'perWebhook'],
    [{ concurrency: 1.5, perWebhook: 2 }, 'concurrency'],
  ])('refuses the limits %j', (limits, name) => {
    expect(() => new DeliverySlots(limits)).toThrow(name);
  });
});
