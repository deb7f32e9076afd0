import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { ClickWriter } from '../src/clicks/click-writer';
import { EVENT_STREAM_TIMING, type EventStreamTiming } from '../src/events/stream/event-stream-reader';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { UNAUTHENTICATED } from './support/contract';
import { sleep } from './support/sleep';
import { unique, UA } from './support/visitors';

/**
 * The event stream of the API (contract §14): server-sent events of every event of §10 about the links the caller
 * may read, from the outbox, so that a change made through any request or instance, and a visit, reach it;
 * resumable with `Last-Event-ID`; kept alive by comments; bounded per account and per instance.
 */

/** Short, so that a test sees comments and the caller's checks within a second. */
const TIMING: EventStreamTiming = { pollMs: 100, heartbeatMs: 400 };
/** Events wait for every older transaction on the shared database, which other files keep busy. */
const EVENT_TIMEOUT_MS = 15_000;

interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

interface EventJson {
  id: string;
  type: string;
  created_at: string;
  data: { id?: number; space?: { id: number } | null; clicks?: { link_id: number }[] };
}

/** A client of one stream: its answer's head, then every event and comment as it comes. */
class StreamClient {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  text = '';
  ended = false;
  private buffer = '';
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.text += chunk;
      this.buffer += chunk;
      this.parse();
    });
    response.on('close', () => {
      this.ended = true;
      this.notify();
    });
  }

  /** The answer's body as JSON (a refusal). */
  json(): unknown {
    return JSON.parse(this.text);
  }

  /** The events' JSON, in order. */
  payloads(): EventJson[] {
    return this.events.map((event) => JSON.parse(event.data) as EventJson);
  }

  /** Waits until `done` holds of what came (checked at each frame), or fails after `timeoutMs`. */
  async until(what: string, done: () => boolean, timeoutMs = EVENT_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) {
        throw new Error(
          `${what}: not within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`,
        );
      }
      if (this.ended) throw new Error(`${what}: the stream ended; got ${this.text}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for an event that `matches`, and returns its JSON. */
  async next(what: string, matches: (event: EventJson) => boolean): Promise<EventJson> {
    let found: EventJson | undefined;
    await this.until(what, () => {
      found = this.payloads().find(matches);
      return found !== undefined;
    });
    return found!;
  }

  close(): void {
    this.response.destroy();
  }

  private parse(): void {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end === -1) break;
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const fields: Record<string, string[]> = {};
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line);
          continue;
        }
        const colon = line.indexOf(':');
        const name = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        (fields[name] ??= []).push(value);
      }
      if (fields.retry !== undefined) this.retry = Number(fields.retry[0]);
      if (fields.data !== undefined) {
        this.events.push({
          id: fields.id?.[0] ?? '',
          event: fields.event?.[0] ?? '',
          data: fields.data.join('\n'),
        });
      }
    }
    this.notify();
  }

  private notify(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }
}

async function listening(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Opens a stream on `t` with these headers; resolves with its answer's head (and, for a refusal, its body). */
async function openStream(t: TestApp, headers: Record<string, string>): Promise<StreamClient> {
  const port = await listening(t);
  const client = await new Promise<StreamClient>((resolve, reject) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/api/v1/events/stream',
      headers: { Accept: 'text/event-stream', ...headers },
    });
    request.on('response', (response) =>
      resolve(new StreamClient(response.statusCode ?? 0, response.headers, response)),
    );
    request.on('error', reject);
    request.end();
  });
  if (client.status !== 200) await client.until('the refusal', () => client.ended, 5000);
  return client;
}

const keyOf = (account: TestAccount) => ({ Authorization: account.auth });

describe('the event stream (GET /api/v1/events/stream)', () => {
  let t: TestApp;
  let second: TestApp;
  let bounded: TestApp;
  let owner: TestAccount;
  const clients: StreamClient[] = [];
  const { call, json } = apiClient(() => t);

  async function stream(app: TestApp, headers: Record<string, string>): Promise<StreamClient> {
    const client = await openStream(app, headers);
    clients.push(client);
    return client;
  }

  async function createLink(account: TestAccount, body: Record<string, unknown> = {}, app = t) {
    const response = await app
      .http()
      .post('/api/v1/links')
      .set('Authorization', account.auth)
      .type('json')
      .send({ url: 'https://example.com/streamed', alias: unique('s'), ...body });
    expect(response.status).toBe(201);
    return response.body.data as { id: number; alias: string };
  }

  async function keyWith(
    account: TestAccount,
    fields: Record<string, unknown>,
  ): Promise<TestAccount & { keyId: number }> {
    const response = await json(account, 'post', '/api/v1/keys', { name: unique('key'), ...fields });
    expect(response.status).toBe(201);
    const key = response.body.data as { id: number; key: string };
    return { ...account, apiKey: key.key, auth: `Bearer ${key.key}`, keyId: key.id };
  }

  const withTiming = {
    override: (builder: TestingModuleBuilder) =>
      builder.overrideProvider(EVENT_STREAM_TIMING).useValue(TIMING),
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' }, withTiming);
    second = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' }, withTiming);
    bounded = await createTestApp(
      { RATE_LIMIT_PER_MINUTE: '0', EVENT_STREAMS_PER_ACCOUNT: '2', EVENT_STREAMS_PER_INSTANCE: '3' },
      withTiming,
    );
    owner = await createAccount(t, 'Streams');
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await Promise.all([t?.close(), second?.close(), bounded?.close()]);
  });

  it('sends each change another request makes as an event: its id, its type and its JSON', async () => {
    const client = await stream(t, keyOf(owner));
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream');
    expect(client.headers['cache-control']).toBe('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    await client.until('the retry hint', () => client.retry !== null, 5000);
    expect(client.retry).toBeGreaterThan(0);

    const link = await createLink(owner);
    const created = await client.next('link.created', (event) => event.data.id === link.id);
    expect(created).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'link.created',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      data: expect.objectContaining({ id: link.id, alias: link.alias, url: 'https://example.com/streamed' }),
    });
    const frame = client.events.find((event) => event.id === created.id)!;
    expect(frame.event).toBe('link.created');
    // The frame's data is the event as a webhook gets it: its id and type are the frame's own.
    expect(created.type).toBe(frame.event);

    expect((await json(owner, 'patch', `/api/v1/links/${link.id}`, { title: 'Streamed' })).status).toBe(200);
    const updated = await client.next('link.updated', (event) => event.type === 'link.updated');
    expect(updated.data).toMatchObject({ id: link.id, title: 'Streamed' });
    expect((await call(owner, 'delete', `/api/v1/links/${link.id}`)).status).toBe(200);
    const deleted = await client.next('link.deleted', (event) => event.type === 'link.deleted');
    expect(deleted.data).toEqual({ id: link.id });
    expect(client.events.map((event) => event.event)).toEqual([
      'link.created',
      'link.updated',
      'link.deleted',
    ]);
  });

  it('sends the clicks of a visit as a link.clicked event', async () => {
    const link = await createLink(owner);
    const client = await stream(t, keyOf(owner));
    const visit = await t.http().get(`/${link.alias}`).set('User-Agent', UA.windowsChrome);
    expect(visit.status).toBe(302);
    await t.app.get(ClickWriter).settle([link.id]);
    const clicked = await client.next('link.clicked', (event) => event.type === 'link.clicked');
    expect(clicked.data.clicks).toEqual([
      expect.objectContaining({ link_id: link.id, alias: link.alias, browser: 'Chrome' }),
    ]);
    expect(client.events.map((event) => event.event)).toEqual(['link.clicked']);
  });

  it('sends the link at its limit as a link.limit_reached event, its data completed for the stream', async () => {
    const link = await createLink(owner, { clicks_limit: 1 });
    const client = await stream(t, keyOf(owner));
    expect((await t.http().get(`/${link.alias}`).set('User-Agent', UA.windowsChrome)).status).toBe(302);
    await t.app.get(ClickWriter).settle([link.id]);
    const reached = await client.next('link.limit_reached', (event) => event.type === 'link.limit_reached');
    expect(reached.data).toMatchObject({ id: link.id, clicks_limit: 1, clicks: 1 });
    await client.next('link.clicked', (event) => event.type === 'link.clicked');
  });

  it('resumes after Last-Event-ID with exactly the events missed, and starts at the present without it', async () => {
    const account = await createAccount(t, 'Resume');
    const first = await stream(t, keyOf(account));
    const before = await createLink(account);
    const seen = await first.next('the first event', (event) => event.data.id === before.id);
    first.close();

    const missed = [await createLink(account), await createLink(account)];
    await json(account, 'patch', `/api/v1/links/${missed[0].id}`, { title: 'Missed' });

    const resumed = await stream(t, { ...keyOf(account), 'Last-Event-ID': seen.id });
    await resumed.until('the missed events', () => resumed.events.length >= 3);
    const after = await createLink(account);
    await resumed.next('the event after the resume', (event) => event.data.id === after.id);
    await sleep(500);
    expect(resumed.payloads().map((event) => [event.type, event.data.id])).toEqual([
      ['link.created', missed[0].id],
      ['link.created', missed[1].id],
      ['link.updated', missed[0].id],
      ['link.created', after.id],
    ]);
    expect(new Set(resumed.events.map((event) => event.id)).size).toBe(4);
    expect(resumed.events.map((event) => event.id)).not.toContain(seen.id);

    // No Last-Event-ID, or one the account never had: the present, without what came before.
    const fresh = await stream(t, keyOf(account));
    const stranger = await stream(t, { ...keyOf(account), 'Last-Event-ID': `evt_${'0'.repeat(32)}` });
    const latest = await createLink(account);
    for (const client of [fresh, stranger]) {
      await client.next('the latest event', (event) => event.data.id === latest.id);
      expect(client.payloads().map((event) => event.data.id)).toEqual([latest.id]);
    }
  });

  it("gives a key restricted to spaces the events of its spaces' links alone", async () => {
    const account = await createAccount(t, 'Restricted streams');
    const space = async (name: string) =>
      ((await json(account, 'post', '/api/v1/spaces', { name: unique(name) })).body.data as { id: number })
        .id;
    const mine = await space('Mine');
    const theirs = await space('Theirs');
    const restricted = await keyWith(account, { scopes: ['links.read'], space_ids: [mine] });
    const client = await stream(t, keyOf(restricted));
    const whole = await stream(t, keyOf(account));

    const inMine = await createLink(account, { space_id: mine });
    const inTheirs = await createLink(account, { space_id: theirs });
    const nowhere = await createLink(account);
    const movedOut = await createLink(account, { space_id: mine });
    await json(account, 'patch', `/api/v1/links/${inTheirs.id}`, { title: 'Not yours' });
    await json(account, 'patch', `/api/v1/links/${movedOut.id}`, { space_id: theirs });
    for (const link of [inMine, inTheirs, inMine]) {
      expect((await t.http().get(`/${link.alias}`).set('User-Agent', UA.linuxFirefox)).status).toBe(302);
    }
    await t.app.get(ClickWriter).settle([inMine.id, inTheirs.id]);
    await whole.next('the clicks', (event) => event.type === 'link.clicked');
    expect((await call(account, 'delete', `/api/v1/links/${inTheirs.id}`)).status).toBe(200);
    expect((await call(account, 'delete', `/api/v1/links/${nowhere.id}`)).status).toBe(200);
    const last = await createLink(account, { space_id: mine });
    expect((await call(account, 'delete', `/api/v1/links/${last.id}`)).status).toBe(200);
    await client.next('the deletion in its space', (event) => event.type === 'link.deleted');
    await whole.next(
      'the last deletion',
      (event) => event.type === 'link.deleted' && event.data.id === last.id,
    );
    await sleep(500);

    const seen = client.payloads();
    const changes = seen.filter((event) => event.type !== 'link.clicked');
    expect(changes.map((event) => [event.type, event.data.id])).toEqual([
      ['link.created', inMine.id],
      ['link.created', movedOut.id],
      ['link.created', last.id],
      ['link.deleted', last.id],
    ]);
    for (const event of changes.filter((event) => event.type === 'link.created')) {
      expect(event.data.space?.id).toBe(mine);
    }
    // The account's click events, each with its space's clicks alone, under the same id.
    const clicked = seen.filter((event) => event.type === 'link.clicked');
    expect(clicked.flatMap((event) => event.data.clicks!.map((click) => click.link_id))).toEqual([
      inMine.id,
      inMine.id,
    ]);
    const wholeClicks = whole.payloads().filter((event) => event.type === 'link.clicked');
    expect(wholeClicks.flatMap((event) => event.data.clicks!.map((click) => click.link_id)).sort()).toEqual(
      [inMine.id, inMine.id, inTheirs.id].sort(),
    );
    for (const event of clicked) expect(wholeClicks.map((whole) => whole.id)).toContain(event.id);
    const wholeChanges = whole.payloads().filter((event) => event.type !== 'link.clicked');
    expect(wholeChanges.map((event) => event.type)).toEqual([
      ...Array<string>(4).fill('link.created'),
      'link.updated',
      'link.updated',
      'link.deleted',
      'link.deleted',
      'link.created',
      'link.deleted',
    ]);
  });

  it('refuses a key without links.read (403), and a missing or unknown key (401), in the contract envelope', async () => {
    const spacesOnly = await keyWith(owner, { scopes: ['spaces.read'] });
    const forbidden = await stream(t, keyOf(spacesOnly));
    expect(forbidden.status).toBe(403);
    expect(forbidden.json()).toEqual({ message: 'This action is unauthorized.', status: 403 });
    for (const headers of [{}, { Authorization: 'Bearer lsk_not-a-key' }] as Record<string, string>[]) {
      const refused = await stream(t, headers);
      expect(refused.status).toBe(401);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.json()).toEqual(UNAUTHENTICATED);
    }
  });

  it("streams to the dashboard's session, and ends the stream when the key behind it is revoked", async () => {
    const key = await keyWith(owner, { scopes: ['links.read'] });
    const signIn = await t.http().post('/api/v1/session').set('Authorization', key.auth);
    expect(signIn.status).toBe(201);
    const cookie = String(([] as string[]).concat(signIn.headers['set-cookie'] ?? [])[0]).split(';')[0];
    const session = await stream(t, { Cookie: cookie, 'X-Shortlink-Session': '1' });
    expect(session.status).toBe(200);
    const direct = await stream(t, keyOf(key));
    const link = await createLink(owner);
    for (const client of [session, direct]) {
      await client.next('the change', (event) => event.data.id === link.id);
    }
    expect((await call(owner, 'delete', `/api/v1/keys/${key.keyId}`)).status).toBe(200);
    for (const client of [session, direct]) {
      await client.until('the end of the stream', () => client.ended, 5000);
    }
  });

  it('answers HEAD with the head of a stream, and holds nothing open', async () => {
    const port = await listening(t);
    const head = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'HEAD',
        path: '/api/v1/events/stream',
        headers: keyOf(owner),
      });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve(response));
      });
      request.on('error', reject);
      request.end();
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream');
  });

  it('says it is alive with a comment every heartbeat', async () => {
    const client = await stream(t, keyOf(owner));
    await client.until('three comments', () => client.comments.length >= 3, 5000);
    expect(client.comments[0]).toMatch(/^:/);
    expect(client.events).toEqual([]);
  });

  it('reaches a stream on one instance with a change made through another', async () => {
    const account = await createAccount(t, 'Two instances');
    const onSecond = await stream(second, keyOf(account));
    const link = await createLink(account, {}, t);
    const created = await onSecond.next(
      'the change of the other instance',
      (event) => event.data.id === link.id,
    );
    expect(created.type).toBe('link.created');
    // And a visit counted by the other instance.
    expect((await t.http().get(`/${link.alias}`).set('User-Agent', UA.macSafari)).status).toBe(302);
    await t.app.get(ClickWriter).settle([link.id]);
    await onSecond.next('the click of the other instance', (event) => event.type === 'link.clicked');
  });

  it('bounds the streams of an account (429) and of an instance (503), before the stream starts', async () => {
    const first = await createAccount(bounded, 'Bounded');
    const other = await createAccount(bounded, 'Bounded too');
    // The account's bound counts its streams on every instance: one here, one on another.
    const open = [await stream(bounded, keyOf(first)), await stream(t, keyOf(first))];
    expect(open.map((client) => client.status)).toEqual([200, 200]);
    const refused = await stream(bounded, keyOf(first));
    expect(refused.status).toBe(429);
    expect(refused.json()).toEqual({ message: 'Too Many Attempts.', status: 429 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The instance's bound: three here.
    expect((await stream(bounded, keyOf(other))).status).toBe(200);
    expect((await stream(bounded, keyOf(other))).status).toBe(200);
    const full = await stream(bounded, keyOf(other));
    expect(full.status).toBe(503);
    expect(full.json()).toEqual({ message: 'Service unavailable.', status: 503 });
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);

    // A stream that ends makes room.
    open[0].close();
    const deadline = Date.now() + 5000;
    let again = await stream(bounded, keyOf(first));
    while (again.status !== 200 && Date.now() < deadline) {
      await sleep(100);
      again = await stream(bounded, keyOf(first));
    }
    expect(again.status).toBe(200);
  });

  it('ends every stream when the application stops, without holding the stop', async () => {
    const account = await createAccount(second, 'Stopping');
    const client = await stream(second, keyOf(account));
    expect(client.status).toBe(200);
    const started = Date.now();
    await second.close();
    await client.until('the end of the stream', () => client.ended, 5000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
