import {
  EVENT_WORKER_OPTIONS,
  EventWorker,
  GATHER_MS,
  type EventWorkerOptions,
} from '../src/events/event-worker';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { Receiver } from './support/receiver';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { sleep } from './support/sleep';
import { unique } from './support/visitors';

/**
 * The worker on its own timers, as in production: a stream of events is delivered in passes at least GATHER_MS
 * apart, each taking what came meanwhile, not in a pass per delivery that ends.
 */
describe('the event worker under a stream of events', () => {
  let t: TestApp;
  let owner: TestAccount;
  let scratch: ScratchDatabase;
  let receiver: Receiver;
  const passes: number[] = [];
  const { json } = apiClient(() => t);

  beforeAll(async () => {
    scratch = await scratchDatabase('shortlink_passes');
    t = await createTestApp(
      { DATABASE_URL: scratch.url, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
      {
        // The worker's own timers (createTestApp's default drives it by hand).
        override: (builder) =>
          builder.overrideProvider(EVENT_WORKER_OPTIONS).useValue({
            pollMs: 250,
            webhookTimeoutMs: 2000,
            retentionMs: 86_400_000,
            backlogMax: 100_000,
            streamBacklogMax: 1_000_000,
            perWebhook: 8,
          } satisfies EventWorkerOptions),
      },
    );
    receiver = await Receiver.start();
    owner = await createAccount(t, 'Passes');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await scratch?.drop();
  });

  it('delivers every event once, its passes at least GATHER_MS apart', async () => {
    // Each pass as it starts: the invariant is about starts, not about the statements a pass makes on its way.
    const worker = t.app.get<EventWorker, { pass: () => Promise<unknown> }>(EventWorker);
    const pass = worker.pass.bind(worker);
    jest.spyOn(worker, 'pass').mockImplementation(() => {
      passes.push(performance.now());
      return pass();
    });
    const hook = await json(owner, 'post', '/api/v1/webhooks', {
      name: unique('Hook'),
      url: receiver.url,
      events: ['link.created'],
    });
    expect(hook.status).toBe(201);

    const created: string[] = [];
    for (let n = 0; n < 30; n += 1) {
      const link = await json(owner, 'post', '/api/v1/links', { url: `https://example.com/${n}` });
      expect(link.status).toBe(201);
      created.push(String((link.body.data as { id: number }).id));
      await sleep(20);
    }
    for (let waited = 0; receiver.received.length < created.length && waited < 20_000; waited += 50)
      await sleep(50);

    const delivered = receiver.received.map((request) =>
      String((JSON.parse(request.body) as { data: { id: number } }).data.id),
    );
    expect(delivered.sort()).toEqual([...created].sort());
    expect(passes.length).toBeGreaterThan(1);
    const gaps = passes.slice(1).map((at, n) => at - passes[n]);
    // Timers fire on the millisecond they are due, rounded: a millisecond of slack.
    expect(gaps.filter((gap) => gap < GATHER_MS - 1)).toEqual([]);
  });
});
