import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventWorker } from '../../src/events/event-worker';
import {
  DEFAULT_LINK_CHECKER_OPTIONS,
  LINK_CHECKER_OPTIONS,
  type LinkCheckerOptions,
} from '../../src/links/health/link-health-checker';
import { MetricsService } from '../../src/metrics/metrics.service';
import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { apiClient } from '../support/api';
import { invalid } from '../support/contract';
import { deliverAll } from '../support/clock';
import { closeServer, listenOnLoopback } from '../support/http-server';
import { LINKS } from '../support/links';
import { Receiver } from '../support/receiver';
import { sleep } from '../support/sleep';
import { unique } from '../support/visitors';

/** Short timings, so that a test sees a check, its second try and a deadline within seconds. */
const OPTIONS: LinkCheckerOptions = {
  ...DEFAULT_LINK_CHECKER_OPTIONS,
  check: { ...DEFAULT_LINK_CHECKER_OPTIONS.check, timeoutMs: 700 },
  retryDelayMs: 400,
  everyMs: 100,
};

/** Checks an instance starts a second at most (LINK_CHECK_RATE), low enough for a test to see it. */
const RATE = 3;

interface Health {
  status: 'ok' | 'broken' | 'unknown';
  http_status: number | null;
  checked_at: string | null;
}

/** A request a target got: its path, its method and when. */
interface Hit {
  path: string;
  method: string;
  at: number;
}

/**
 * Link health (contract §13) against targets on a loopback server (LINK_CHECK_ALLOW_PRIVATE_ADDRESSES=true lets
 * the checks reach it; the address policy itself is covered by link-check.spec.ts): a new link is unknown, then
 * checked within a minute; 404, 410, 5xx or silence, twice, make it broken; the `health=broken` filter lists it;
 * turning broken and recovering send `link.broken` and `link.recovered`; one host is asked at most once a second.
 */
describe('Links API: link health', () => {
  let t: TestApp;
  let account: TestAccount;
  let target: Server;
  let base: string;
  let receiver: Receiver;
  const hits: Hit[] = [];
  /** What each path answers; a path not here answers 200. */
  const answers = new Map<string, number | 'hang'>();
  const { call, json } = apiClient(() => t);

  beforeAll(async () => {
    target = createServer((request: IncomingMessage, response: ServerResponse) => {
      const path = new URL(request.url ?? '/', 'http://target').pathname;
      hits.push({ path, method: request.method ?? '', at: Date.now() });
      const answer = answers.get(path) ?? 200;
      if (answer === 'hang') return;
      response.writeHead(answer).end();
    });
    base = `http://127.0.0.1:${await listenOnLoopback(target)}`;
    receiver = await Receiver.start();
    t = await createTestApp(
      {
        LINK_CHECKS: 'true',
        LINK_CHECK_ALLOW_PRIVATE_ADDRESSES: 'true',
        LINK_CHECK_RATE: String(RATE),
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        RATE_LIMIT_PER_MINUTE: '0',
      },
      { override: (builder) => builder.overrideProvider(LINK_CHECKER_OPTIONS).useValue(OPTIONS) },
    );
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    if (target !== undefined) await closeServer(target);
  });

  const healthOf = async (id: number): Promise<Health> =>
    (await call(account, 'get', `${LINKS}/${id}`)).body.data.health as Health;

  /** The link's health once `done` says it is settled, read every 100 ms for up to `ms`. */
  async function settled(id: number, done: (health: Health) => boolean, ms = 15_000): Promise<Health> {
    const until = Date.now() + ms;
    let health = await healthOf(id);
    while (!done(health) && Date.now() < until) {
      await sleep(100);
      health = await healthOf(id);
    }
    return health;
  }

  const link = async (path: string, body: Record<string, unknown> = {}) => {
    const response = await json(account, 'post', LINKS, { url: `${base}${path}`, ...body });
    expect(response.status).toBe(201);
    return response.body.data as { id: number; health: Health };
  };

  it('answers a new link unknown, then checks it with a HEAD: ok, with the status and the time', async () => {
    const path = `/${unique('fine')}`;
    const created = await link(path);
    expect(created.health).toEqual({ status: 'unknown', http_status: null, checked_at: null });
    const health = await settled(created.id, (h) => h.status !== 'unknown');
    expect(health).toEqual({ status: 'ok', http_status: 200, checked_at: expect.any(String) });
    expect(hits.filter((hit) => hit.path === path).map((hit) => hit.method)).toEqual(['HEAD']);
  });

  it.each([404, 410, 500, 503])(
    'calls a link broken when its target answers %i twice, 10 s apart (here shorter), and lists it with health=broken',
    async (status) => {
      const path = `/${unique(`gone-${status}`)}`;
      answers.set(path, status);
      const created = await link(path);
      const health = await settled(created.id, (h) => h.status === 'broken');
      expect(health).toEqual({ status: 'broken', http_status: status, checked_at: expect.any(String) });
      const tries = hits.filter((hit) => hit.path === path);
      expect(tries).toHaveLength(2);
      expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(OPTIONS.retryDelayMs - 50);
      const listed = await call(account, 'get', `${LINKS}?health=broken&per_page=100`);
      expect((listed.body.data as { id: number }[]).map((item) => item.id)).toContain(created.id);
    },
  );

  it('keeps a link ok when its target fails once and answers the second try', async () => {
    const path = `/${unique('flaky')}`;
    answers.set(path, 503);
    const created = await link(path);
    // Once the first try failed, the target recovers before the second.
    const until = Date.now() + 10_000;
    while (hits.filter((hit) => hit.path === path).length === 0 && Date.now() < until) await sleep(20);
    answers.delete(path);
    const health = await settled(created.id, (h) => h.status !== 'unknown');
    expect(health).toMatchObject({ status: 'ok', http_status: 200 });
  });

  it('calls a target that never answers broken, with no status, after its deadline and a second try', async () => {
    const path = `/${unique('silent')}`;
    answers.set(path, 'hang');
    const created = await link(path);
    const health = await settled(created.id, (h) => h.status === 'broken');
    expect(health).toMatchObject({ status: 'broken', http_status: null });
  });

  it('tries a HEAD refused with 405 as a GET', async () => {
    const path = `/${unique('no-head')}`;
    const server = createServer((request, response) => {
      hits.push({ path, method: request.method ?? '', at: Date.now() });
      response.writeHead(request.method === 'HEAD' ? 405 : 204).end();
    });
    const port = await listenOnLoopback(server);
    try {
      const created = await json(account, 'post', LINKS, { url: `http://127.0.0.1:${port}${path}` });
      const health = await settled(created.body.data.id as number, (h) => h.status !== 'unknown');
      expect(health).toMatchObject({ status: 'ok', http_status: 204 });
      expect(hits.filter((hit) => hit.path === path).map((hit) => hit.method)).toEqual(['HEAD', 'GET']);
    } finally {
      await closeServer(server);
    }
  });

  it('asks one host at most once in each second, however many of its links are due', async () => {
    const marker = unique('paced');
    const created = await json(account, 'post', `${LINKS}/bulk`, {
      links: Array.from({ length: 5 }, (_, n) => ({ url: `${base}/${marker}/${n}` })),
    });
    expect(created.status).toBe(201);
    const ids = (created.body.data as { id: number }[]).map((item) => item.id);
    for (const id of ids) expect((await settled(id, (h) => h.status !== 'unknown')).status).toBe('ok');
    // Every request to the host in that time, whichever test's link it was for: one a second at most.
    const first = hits.findIndex((hit) => hit.path.startsWith(`/${marker}/`));
    const seconds = hits.slice(first).map((hit) => Math.floor(hit.at / 1000));
    expect(new Set(seconds).size).toBe(seconds.length);
    expect(seconds.length).toBeGreaterThanOrEqual(5);
  });

  it('starts at most LINK_CHECK_RATE checks a second across hosts, and gets through a backlog', async () => {
    // Nine hosts, each a loopback address of its own, each with one link due at once.
    const sites: Server[] = [];
    const seen: number[] = [];
    try {
      const urls: string[] = [];
      for (let n = 2; n <= 10; n += 1) {
        const site = createServer((_request, response) => {
          seen.push(Date.now());
          response.writeHead(200).end();
        });
        sites.push(site);
        await new Promise<void>((resolve) => site.listen(0, `127.0.0.${n}`, resolve));
        urls.push(`http://127.0.0.${n}:${(site.address() as AddressInfo).port}/${unique('rated')}`);
      }
      const created = await json(account, 'post', `${LINKS}/bulk`, { links: urls.map((url) => ({ url })) });
      expect(created.status).toBe(201);
      const ids = (created.body.data as { id: number }[]).map((item) => item.id);
      for (const id of ids) expect((await settled(id, (h) => h.status !== 'unknown')).status).toBe('ok');
      expect(seen).toHaveLength(9);
      // Nine at three a calendar second start in three different seconds at least: over a second apart, first to
      // last, where the eight the concurrency allows would otherwise go at once. Any 1,000 ms hold two seconds'
      // allowance at most (the end of one second and the start of the next).
      const sorted = [...seen].sort((a, b) => a - b);
      expect(sorted[8] - sorted[0]).toBeGreaterThan(1000);
      const busiest = Math.max(
        ...sorted.map((at) => sorted.filter((other) => other >= at && other < at + 1000).length),
      );
      expect(busiest).toBeLessThanOrEqual(2 * RATE);
    } finally {
      for (const site of sites) await closeServer(site);
    }
  });

  it('checks a changed target afresh, unknown until then', async () => {
    const path = `/${unique('moved')}`;
    answers.set(path, 404);
    const created = await link(path);
    await settled(created.id, (h) => h.status === 'broken');
    const moved = await json(account, 'patch', `${LINKS}/${created.id}`, {
      url: `${base}/${unique('new-home')}`,
    });
    expect(moved.body.data.health).toEqual({ status: 'unknown', http_status: null, checked_at: null });
    expect(await settled(created.id, (h) => h.status !== 'unknown')).toMatchObject({ status: 'ok' });
    // A title change is no new target: the verdict stays.
    const renamed = await json(account, 'patch', `${LINKS}/${created.id}`, { title: 'Renamed' });
    expect(renamed.body.data.health).toMatchObject({ status: 'ok', http_status: 200 });
  });

  it('sends link.broken when a link turns broken and link.recovered when it answers again', async () => {
    const hook = await json(account, 'post', '/api/v1/webhooks', {
      name: 'health',
      url: receiver.url,
      events: ['link.broken', 'link.recovered'],
    });
    expect(hook.status).toBe(201);
    const path = `/${unique('turns')}`;
    answers.set(path, 500);
    const created = await link(path);
    await settled(created.id, (h) => h.status === 'broken');
    answers.delete(path);
    // Due again now, rather than a day on.
    await t.dataSource.query('UPDATE link_checks SET due_at = now() WHERE link_id = $1', [created.id]);
    await settled(created.id, (h) => h.status === 'ok');
    await deliverAll(t.app.get(EventWorker));
    const events = receiver.received.map(
      (request) => JSON.parse(request.body) as { type: string; created_at: string; data: { id: number } },
    );
    // Deliveries to one webhook may run side by side: the events' own times give their order.
    const mine = events
      .filter((event) => event.data.id === created.id)
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    expect(mine.map((event) => event.type)).toEqual(['link.broken', 'link.recovered']);
    expect(mine[0].data).toMatchObject({ id: created.id, url: `${base}${path}` });
    await call(account, 'delete', `/api/v1/webhooks/${hook.body.data.id as number}`);
  });

  it('counts its checks by result for operators', async () => {
    const text = await t.app.get(MetricsService).registry.metrics();
    expect(text).toMatch(/shortlink_link_checks_total\{result="ok"\} [1-9]/);
    expect(text).toMatch(/shortlink_link_checks_total\{result="broken"\} [1-9]/);
    expect(text).toMatch(/shortlink_link_checks_total\{result="retry"\} [1-9]/);
  });

  it('refuses a health filter it does not know, naming it', async () => {
    expect((await call(account, 'get', `${LINKS}?health=dead`)).body).toEqual(
      invalid('health', 'The selected health is invalid.'),
    );
  });
});
