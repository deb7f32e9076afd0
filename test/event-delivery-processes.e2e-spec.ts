import { Client } from 'pg';
import { childEnv, freePort, killAllChildren, startServer, type ServerProcess } from './support/process';
import { Receiver, type Received } from './support/receiver';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { sleep } from './support/sleep';
import { UA, unique } from './support/visitors';

/**
 * Webhook deliveries from the outbox by service processes, as production runs them (contract §10): two instances on
 * one database deliver each event once; `kill -9` of the instance delivering loses no event (another instance sends
 * it again once its lease is over); SIGTERM lets the deliveries in flight end and records them.
 *
 * Each test has a database of its own: every instance and test app on a database sends its webhooks' events, so on
 * the run's shared database another file's instances would deliver these events too.
 */

/** A short sender deadline, so that a claim's lease (3 × the deadline + 5 s) ends within a test. */
const WEBHOOK_TIMEOUT_MS = 1000;
const LEASE_MS = 3 * WEBHOOK_TIMEOUT_MS + 5000;
const SETTINGS = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  // The receivers listen on loopback.
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
};

interface Event {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

interface Click {
  link_id: number;
  alias: string;
}

/** A service process and the port of its metrics. */
interface Instance {
  server: ServerProcess;
  metricsPort: number;
}

/** Polls `done` every 50 ms until it holds or `ms` have passed; whether it held. */
async function until(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/** Runs `task` for each item, `width` at a time; the results in the items' order. */
async function inParallel<T, R>(
  items: readonly T[],
  width: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]);
      }
    }),
  );
  return results;
}

function eventOf(request: Received): Event {
  return JSON.parse(request.body) as Event;
}

function countBy<T>(items: readonly T[], key: (item: T) => string | number): Map<string | number, number> {
  const counts = new Map<string | number, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** The requests not answered 200, by event id and what they were answered. */
function unansweredOf(requests: readonly Received[]): { event: unknown; answered: unknown }[] {
  return requests
    .filter((request) => request.answered !== 200)
    .map((request) => ({ event: request.headers['webhook-id'], answered: request.answered }));
}

/** The link ids of the `link.created` events among `requests`. */
function createdLinkIds(requests: readonly Received[]): number[] {
  return requests
    .map(eventOf)
    .filter((event) => event.type === 'link.created')
    .map((event) => event.data.id as number);
}

function sorted(ids: Iterable<number>): number[] {
  return [...ids].sort((a, b) => a - b);
}

describe('webhook deliveries by service processes', () => {
  const apiKey = process.env.INITIAL_API_KEY!;
  let database: ScratchDatabase | undefined;
  const receivers: Receiver[] = [];

  afterEach(async () => {
    await killAllChildren();
    for (const receiver of receivers.splice(0)) await receiver.close();
    await database?.drop();
    database = undefined;
  });

  /** A database of the test's own; its first instance migrates it and makes the account of INITIAL_API_KEY. */
  async function freshDatabase(): Promise<string> {
    database = await scratchDatabase('shortlink_event_processes');
    return database.url;
  }

  async function receiver(): Promise<Receiver> {
    const started = await Receiver.start();
    receivers.push(started);
    return started;
  }

  async function instance(databaseUrl: string, settings: Record<string, string> = {}): Promise<Instance> {
    const metricsPort = await freePort();
    const env = childEnv({
      ...SETTINGS,
      ...settings,
      DATABASE_URL: databaseUrl,
      METRICS_PORT: String(metricsPort),
    });
    return { server: await startServer({ env }), metricsPort };
  }

  async function api(
    server: ServerProcess,
    method: string,
    path: string,
    body?: Record<string, unknown>,
  ): Promise<{ status: number; data: Record<string, unknown> }> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json()) as { data: Record<string, unknown> };
    return { status: response.status, data: answer.data };
  }

  async function webhook(server: ServerProcess, to: Receiver, events: string[]) {
    const created = await api(server, 'POST', '/api/v1/webhooks', {
      name: unique('Hook'),
      url: to.url,
      events,
    });
    expect(created.status).toBe(201);
    return created.data as { id: number; secret: string };
  }

  /** `count` links, made 8 at a time, each through the next of `servers` in turn. */
  async function links(servers: ServerProcess[], count: number): Promise<{ id: number; alias: string }[]> {
    const statuses: number[] = [];
    const made = await inParallel(
      Array.from({ length: count }, (_, index) => index),
      8,
      async (index) => {
        const created = await api(servers[index % servers.length], 'POST', '/api/v1/links', {
          url: `https://example.com/delivered/${index}`,
          alias: unique('evt'),
        });
        statuses.push(created.status);
        return created.data as { id: number; alias: string };
      },
    );
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    return made;
  }

  /** A person's visit: the status of the answer, not followed. */
  async function visit(server: ServerProcess, alias: string): Promise<number> {
    const response = await fetch(`${server.url}/${alias}`, {
      redirect: 'manual',
      headers: { 'User-Agent': UA.macSafari },
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** What an instance counted of its webhook attempts, by result, from its metrics port. */
  async function attemptsOf({ metricsPort }: Instance): Promise<{ delivered: number; failed: number }> {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const count = (result: string) => {
      const line = new RegExp(
        `^shortlink_event_deliveries_total\\{(?=[^}]*sink="webhook")(?=[^}]*result="${result}")[^}]*\\} (\\d+)$`,
        'm',
      ).exec(text);
      return line === null ? 0 : Number(line[1]);
    };
    return { delivered: count('delivered'), failed: count('failed') };
  }

  /** A webhook's deliveries as the database holds them: the event, its attempts, how it ended, whether still due. */
  async function deliveries(
    databaseUrl: string,
    webhookId: number,
  ): Promise<{ event: string; type: string; attempts: number; outcome: number | null; pending: boolean }[]> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{
        event: string;
        type: string;
        attempts: number;
        outcome: number | null;
        pending: boolean;
      }>(
        `SELECT e.public_id AS event, e.type, d.attempts, d.outcome, d.next_attempt_at IS NOT NULL AS pending
           FROM event_deliveries d JOIN events e ON e.id = d.event_id
          WHERE d.webhook_id = $1 ORDER BY d.id`,
        [webhookId],
      );
      return rows;
    } finally {
      await client.end();
    }
  }

  /** The delivery log's statuses of a webhook, by event id, in the order of the attempts. */
  async function loggedStatuses(
    databaseUrl: string,
    webhookId: number,
  ): Promise<Map<string, (number | null)[]>> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ event_id: string; status: number | null }>(
        'SELECT event_id, status FROM webhook_attempts WHERE webhook_id = $1 ORDER BY id',
        [webhookId],
      );
      const statuses = new Map<string, (number | null)[]>();
      for (const row of rows) statuses.set(row.event_id, [...(statuses.get(row.event_id) ?? []), row.status]);
      return statuses;
    } finally {
      await client.end();
    }
  }

  it('two instances deliver each event once between them, every click once, all signed', async () => {
    const started = Date.now();
    const databaseUrl = await freshDatabase();
    const to = await receiver();
    // The sender's full deadline: a stall of a loaded test machine must not turn an answered delivery into a retry,
    // which would be a second send this test cannot tell from a double claim. One after the other: the first
    // migrates the new database and makes the account.
    const first = await instance(databaseUrl, { WEBHOOK_TIMEOUT_MS: '10000' });
    const second = await instance(databaseUrl, { WEBHOOK_TIMEOUT_MS: '10000' });
    const servers = [first.server, second.server];
    const hook = await webhook(first.server, to, ['link.created', 'link.clicked']);

    const ready = Date.now();
    const made = await links(servers, 200);
    // 25 visits to each of 4 links, spread over both instances.
    const visits = made.slice(0, 4).flatMap((link) => Array.from({ length: 25 }, () => link));
    const statuses = await inParallel(
      visits.map((link, index) => ({ link, server: servers[index % 2] })),
      8,
      async ({ link, server }) => ({ link: link.id, status: await visit(server, link.alias) }),
    );
    const redirects = statuses.filter((answer) => answer.status === 302);
    expect(redirects).toHaveLength(visits.length);

    const clicksReceived = () =>
      to.received
        .map(eventOf)
        .filter((event) => event.type === 'link.clicked')
        .flatMap((event) => (event.data as { clicks: Click[] }).clicks);
    const linksSeen = () => new Set(createdLinkIds(to.received)).size;
    await until(() => linksSeen() === made.length && clicksReceived().length >= redirects.length, 90_000);
    // Then quiet: nothing left to send in the database, and every request the receiver got was an attempt that an
    // instance has finished and counted (a second send of an event would show up here before the assertions).
    const settled = await until(async () => {
      const rows = await deliveries(databaseUrl, hook.id);
      const counted = await Promise.all([first, second].map(attemptsOf));
      const attempts = counted.reduce((sum, count) => sum + count.delivered + count.failed, 0);
      return rows.every((row) => !row.pending) && attempts === to.received.length;
    }, 30_000);
    const quiet = Date.now();
    expect({ links: linksSeen(), clicks: clicksReceived().length, settled }).toEqual({
      links: made.length,
      clicks: redirects.length,
      settled: true,
    });

    // Every request is signed per Standard Webhooks, checked by the reference package, and was answered 200.
    const events = to.verified(hook.secret) as Event[];
    expect(events).toHaveLength(to.received.length);
    expect(unansweredOf(to.received)).toEqual([]);
    expect(events.map((event) => event.id)).toEqual(
      to.received.map((request) => request.headers['webhook-id']),
    );
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(['link.created', 'link.clicked']));

    // No event was sent twice.
    const sentTwice = [...countBy(events, (event) => event.id)].filter(([, times]) => times > 1);
    expect(sentTwice).toEqual([]);

    // One `link.created` per link: every link, and no other.
    const created = events.filter((event) => event.type === 'link.created');
    expect(created).toHaveLength(made.length);
    expect(new Set(created.map((event) => event.id)).size).toBe(made.length);
    expect(sorted(created.map((event) => event.data.id as number))).toEqual(
      sorted(made.map((link) => link.id)),
    );

    // Every click once: per link, as many as the redirects answered.
    const clicks = clicksReceived();
    expect(Object.fromEntries(countBy(clicks, (click) => click.link_id))).toEqual(
      Object.fromEntries(countBy(redirects, (answer) => answer.link)),
    );
    const aliases = new Map(made.map((link) => [link.id, link.alias]));
    expect(clicks.filter((click) => aliases.get(click.link_id) !== click.alias)).toEqual([]);

    // Both instances delivered a share, and between them exactly what the receiver got.
    const counted = await Promise.all([first, second].map(attemptsOf));
    expect(counted.map((count) => count.failed)).toEqual([0, 0]);
    expect(counted.every((count) => count.delivered > 0)).toBe(true);
    expect(counted[0].delivered + counted[1].delivered).toBe(to.received.length);
    process.stderr.write(
      `two instances: ${created.length} link.created and ${clicks.length} clicks in ` +
        `${events.length - created.length} link.clicked events; delivered ${counted[0].delivered} + ` +
        `${counted[1].delivered}; set-up ${ready - started} ms, links to quiet ${quiet - ready} ms\n`,
    );
  }, 180_000);

  it('loses no event to kill -9 of the instance delivering, whose deliveries in flight another sends again', async () => {
    const started = Date.now();
    const databaseUrl = await freshDatabase();
    const to = await receiver();
    // A slow receiver: every answer comes 400 ms after its request, so that deliveries are in flight at any moment.
    to.answer(...Array.from({ length: 1000 }, () => ({ status: 200, afterMs: 400 })));
    const doomed = await instance(databaseUrl);
    const hook = await webhook(doomed.server, to, ['link.created']);
    const made = await links([doomed.server], 50);

    // Some delivered, some still to send, and some in flight: sent, the answer not there yet.
    const inFlight = () => to.received.filter((request) => request.answered === undefined);
    const midway = await until(() => to.received.length >= 8 && inFlight().length > 0, 30_000);
    const unanswered = createdLinkIds(inFlight());
    const answeredBefore = to.received.filter((request) => request.answered !== undefined).length;
    const receivedBefore = to.received.length;
    // The signal goes out at once: nothing of the receiver's changes between the count above and the kill.
    await doomed.server.kill();
    const killedAt = Date.now();
    expect({ midway, killedMidway: unanswered.length > 0 && receivedBefore < made.length }).toEqual({
      midway: true,
      killedMidway: true,
    });

    // The receiver answers at once from now on; another instance takes over.
    to.recover();
    // A request the killed instance had sent may still have been read after the kill: the successor's come after.
    const beforeSuccessor = to.received.length;
    const successor = await instance(databaseUrl);
    const delivered = (request: Received) => request.answered !== undefined && request.answered < 300;
    const linksDelivered = () => sorted(new Set(createdLinkIds(to.received.filter(delivered))));
    await until(() => linksDelivered().length === made.length, LEASE_MS + 60_000);
    const settled = await until(
      async () => (await deliveries(databaseUrl, hook.id)).every((row) => !row.pending),
      30_000,
    );

    // Every link's event answered 2xx, signed, under one event id however often it was sent.
    expect({ links: linksDelivered(), settled }).toEqual({
      links: sorted(made.map((link) => link.id)),
      settled: true,
    });
    const events = to.verified(hook.secret) as Event[];
    const idsOfLink = new Map<number, Set<string>>();
    for (const event of events) {
      const linkId = event.data.id as number;
      idsOfLink.set(linkId, (idsOfLink.get(linkId) ?? new Set()).add(event.id));
    }
    expect([...idsOfLink.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    // The events in flight at the kill were sent again after it, and answered.
    const resent = to.received.slice(beforeSuccessor).filter(delivered);
    expect(sorted(unanswered.filter((linkId) => createdLinkIds(resent).includes(linkId)))).toEqual(
      sorted(unanswered),
    );

    // Every request after the kill came from the successor, which counted as delivered those answered 2xx.
    const counted = await attemptsOf(successor);
    expect({ attempts: counted.delivered + counted.failed, delivered: counted.delivered }).toEqual({
      attempts: to.received.length - beforeSuccessor,
      delivered: to.received.slice(beforeSuccessor).filter(delivered).length,
    });

    // In the database, every delivery is done and delivered: none left leased or due.
    const rows = await deliveries(databaseUrl, hook.id);
    expect(rows).toHaveLength(made.length);
    expect(rows.filter((row) => row.outcome !== 1 || row.pending)).toEqual([]);

    const receivedTwice = [...countBy(createdLinkIds(to.received), (id) => id)].filter(
      ([, times]) => times > 1,
    );
    const answeredTwice = [...countBy(createdLinkIds(to.received.filter(delivered)), (id) => id)].filter(
      ([, times]) => times > 1,
    );
    process.stderr.write(
      `kill -9: killed with ${receivedBefore} of ${made.length} events received, ${answeredBefore} answered, ` +
        `${unanswered.length} in flight; afterwards ${to.received.length} requests in all: ` +
        `${receivedTwice.length} events received more than once, ${answeredTwice.length} answered 2xx more than ` +
        `once; all delivered ${Date.now() - killedAt} ms after the kill; ${Date.now() - started} ms\n`,
    );
  }, 180_000);

  it('on SIGTERM lets the deliveries in flight end, records them delivered, and exits 0', async () => {
    const started = Date.now();
    const databaseUrl = await freshDatabase();
    const to = await receiver();
    // A receiver that answers after 1 s, well within the sender's deadline.
    to.answer(...Array.from({ length: 100 }, () => ({ status: 200, afterMs: 1000 })));
    const stopping = await instance(databaseUrl, { WEBHOOK_TIMEOUT_MS: '5000' });
    const hook = await webhook(stopping.server, to, ['link.created']);
    await links([stopping.server], 10);

    const inFlight = () => to.received.filter((request) => request.answered === undefined);
    expect(await until(() => inFlight().length > 0, 30_000)).toBe(true);
    const unanswered = inFlight().length;
    stopping.server.child.kill('SIGTERM');
    const exit = await stopping.server.waitExit(30_000);
    expect(exit).toEqual({ code: 0, signal: null });

    // Every request the receiver got, those in flight at the signal among them, was answered while the instance
    // waited, and is recorded delivered: logged with the 200, the delivery done, none left leased.
    const sent = to.received.map((request) => String(request.headers['webhook-id']));
    expect(unansweredOf(to.received)).toEqual([]);
    const logged = await loggedStatuses(databaseUrl, hook.id);
    expect(Object.fromEntries(sent.map((event) => [event, logged.get(event)]))).toEqual(
      Object.fromEntries(sent.map((event) => [event, [200]])),
    );
    const rows = await deliveries(databaseUrl, hook.id);
    const attempted = rows.filter((row) => row.attempts > 0);
    expect(attempted.map((row) => row.event).sort()).toEqual([...sent].sort());
    expect(attempted.filter((row) => row.outcome !== 1 || row.pending)).toEqual([]);
    // What it had not started is still due, for the next instance, never attempted.
    expect(rows.filter((row) => row.attempts === 0 && !(row.pending && row.outcome === null))).toEqual([]);
    process.stderr.write(
      `SIGTERM: ${unanswered} in flight at the signal, ${sent.length} delivered before the exit, ` +
        `${rows.length - attempted.length} left due; ${Date.now() - started} ms\n`,
    );
  }, 120_000);
});
