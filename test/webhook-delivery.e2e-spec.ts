import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventWorker, type EventWorkerOptions } from '../src/events/event-worker';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../src/events/retry-schedule';
import { deliverAll, onClock, TestClock } from './support/clock';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { responseValidator } from './support/openapi-responses';
import { Receiver } from './support/receiver';
import { scratchDatabase, type ScratchDatabase } from './support/scratch-database';
import { ClickWriter } from '../src/clicks/click-writer';
import { ClickRepository } from '../src/clicks/click.repository';
import { profileVisitor } from '../src/targeting/visitor';
import { writeMmdb } from './support/mmdb';
import { createLink, IP, UA, unique } from './support/visitors';

/**
 * Webhook deliveries from the outbox, in one instance, against a real receiver on a loopback port, on a clock the
 * test moves: what is delivered, signed how (checked by the `standardwebhooks` package), retried when, and what a
 * change that rolls back leaves (nothing).
 */

const MINUTE = 60_000;

interface Event {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

describe('webhook deliveries', () => {
  let t: TestApp;
  let owner: TestAccount;
  let worker: EventWorker;
  let scratch: ScratchDatabase;
  const clock = new TestClock();
  const { call, json, text } = apiClient(() => t);
  const receivers: Receiver[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'webhook-city-'));
  const cities = join(dir, 'city.mmdb');

  const deliver = () => deliverAll(worker);

  async function webhookTo(account: TestAccount, events: string[], receiver?: Receiver) {
    const target = receiver ?? (await Receiver.start());
    if (receiver === undefined) receivers.push(target);
    const response = await json(account, 'post', '/api/v1/webhooks', {
      name: unique('Hook'),
      url: target.url,
      events,
    });
    expect(`${response.status} ${JSON.stringify(response.body.message ?? '')}`).toBe('201 ""');
    const data = response.body.data as { id: number; secret: string };
    return { id: data.id, secret: data.secret, receiver: target };
  }

  async function deliveryLog(account: TestAccount, webhookId: number) {
    const response = await call(account, 'get', `/api/v1/webhooks/${webhookId}/deliveries?per_page=100`);
    expect(response.status).toBe(200);
    return response.body.data as {
      event_id: string;
      type: string;
      attempt: number;
      status: number | null;
      error: string | null;
    }[];
  }

  beforeAll(async () => {
    // A database of its own: no other file's app or server sends (or fans out) these events.
    scratch = await scratchDatabase('shortlink_webhooks');
    writeMmdb(cities, { '81.2.69.0/24': { country_code: 'GB', city: 'London' } });
    const options: EventWorkerOptions = {
      // The test drives every pass: the worker makes none of its own.
      pollMs: null,
      webhookTimeoutMs: 1000,
      retentionMs: 7 * 86_400_000,
      backlogMax: 100_000,
      streamBacklogMax: 1_000_000,
      perWebhook: 2,
    };
    t = await createTestApp(
      {
        DATABASE_URL: scratch.url,
        RATE_LIMIT_PER_MINUTE: '0',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_TIMEOUT_MS: '1000',
        // A visit's X-Forwarded-For gives its country, and this small database its city.
        TRUST_PROXY: 'true',
        GEOIP_CITY_DATABASE: cities,
      },
      onClock(clock, options),
    );
    worker = t.app.get(EventWorker);
    await worker.drain();
    owner = await createAccount(t, 'Webhooks');
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await t?.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers a created, updated and deleted link, signed per Standard Webhooks, the data as the API shows it', async () => {
    const { secret, receiver } = await webhookTo(owner, ['link.created', 'link.updated', 'link.deleted']);
    const link = await createLink(t, owner, { url: 'https://example.com/first', alias: unique('hook') });
    const updated = await json(owner, 'patch', `/api/v1/links/${link.id}`, { title: 'Changed' });
    await call(owner, 'delete', `/api/v1/links/${link.id}`);
    await deliver();

    // Two deliveries of a webhook go at once, so they may arrive in any order: each says what it is.
    const events = receiver.verified(secret, clock.now()) as Event[];
    const ofType = (type: string) => events.filter((event) => event.type === type);
    expect(events.map((event) => event.type).sort()).toEqual([
      'link.created',
      'link.deleted',
      'link.updated',
    ]);
    expect(ofType('link.created')[0].data).toEqual(link);
    expect(ofType('link.updated')[0].data).toEqual(updated.body.data);
    expect(ofType('link.deleted')[0].data).toEqual({ id: link.id });
    // Each as the OpenAPI document's components describe it.
    const schemas = responseValidator();
    expect(schemas.schemaProblem('LinkEvent', ofType('link.created')[0])).toBeNull();
    expect(schemas.schemaProblem('LinkEvent', ofType('link.updated')[0])).toBeNull();
    expect(schemas.schemaProblem('LinkDeletedEvent', ofType('link.deleted')[0])).toBeNull();
    expect(schemas.schemaProblem('LinkClickedEvent', ofType('link.deleted')[0])).not.toBeNull();
    expect(ofType('link.created')[0].created_at <= ofType('link.deleted')[0].created_at).toBe(true);
    for (const [index, event] of events.entries()) {
      expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(receiver.received.some((request) => request.headers['webhook-id'] === event.id)).toBe(true);
      expect(receiver.received[index].headers['content-type']).toBe('application/json');
      const timestamp = Number(receiver.received[index].headers['webhook-timestamp']);
      // Verified against the real clock too: the first test moves no time.
      expect(receiver.verified(secret)).toHaveLength(3);
      expect(Math.abs(timestamp - clock.now() / 1000)).toBeLessThan(5);
    }
    expect(new Set(events.map((event) => event.id)).size).toBe(3);
  });

  it('sends nothing an account’s webhooks do not take, and nothing of another account', async () => {
    const { receiver } = await webhookTo(owner, ['link.deleted']);
    const other = await createAccount(t);
    await createLink(t, owner, { url: 'https://example.com/kept' });
    const theirs = await createLink(t, other, { url: 'https://example.com/theirs' });
    await call(other, 'delete', `/api/v1/links/${theirs.id}`);
    await deliver();
    expect(receiver.received).toEqual([]);
  });

  it('sends one event per link of a bulk create and of an import', async () => {
    const { receiver } = await webhookTo(owner, ['link.created']);
    const bulk = await json(owner, 'post', '/api/v1/links/bulk', {
      links: [1, 2, 3].map((n) => ({ url: `https://example.com/bulk/${n}` })),
    });
    expect(bulk.status).toBe(201);
    const imported = await call(owner, 'post', '/api/v1/links/import')
      .type('text/csv')
      .send('url\nhttps://example.com/i/1\nhttps://example.com/i/2\n');
    expect(imported.status).toBe(201);
    await deliver();
    const made = [...(bulk.body.data as { id: number }[]), ...(imported.body.data as { id: number }[])];
    const events = receiver.events<Event>();
    expect(events.map((event) => event.type)).toEqual(made.map(() => 'link.created'));
    expect(events.map((event) => event.data.id).sort()).toEqual(made.map((link) => link.id).sort());
  });

  it('leaves no event of a change that rolls back', async () => {
    const { receiver } = await webhookTo(owner, ['link.created']);
    const refused = await json(owner, 'post', '/api/v1/links/bulk', {
      links: [
        { url: 'https://example.com/ok' },
        { url: 'https://example.com/taken', alias: 'taken-twice' },
        { url: 'https://example.com/again', alias: 'taken-twice' },
      ],
    });
    expect(refused.status).toBe(422);
    const [{ count }] = await t.dataSource.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM events WHERE account_id = $1 AND type = 'link.created' AND NOT dispatched`,
      [owner.id],
    );
    expect(count).toBe(0);
    await deliver();
    expect(receiver.received).toEqual([]);
  });

  it('retries after a 500 and after a timeout with the same event id, as the schedule says, and logs each attempt', async () => {
    const { id, secret, receiver } = await webhookTo(owner, ['link.created']);
    receiver.answer(500, 'hang', 200);
    const link = await createLink(t, owner, { url: 'https://example.com/retried' });
    await deliver();
    expect(receiver.received).toHaveLength(1);
    // Not before its time: 4 s on, nothing; the first retry comes within 10 s.
    clock.advance(4000);
    await deliver();
    expect(receiver.received).toHaveLength(1);
    clock.advance(RETRY_DELAYS_MS[0] - 4000);
    await deliver();
    expect(receiver.received).toHaveLength(2);
    clock.advance(RETRY_DELAYS_MS[1]);
    await deliver();
    expect(receiver.received).toHaveLength(3);
    const events = receiver.verified(secret, 'as-sent') as Event[];
    expect(new Set(events.map((event) => event.id)).size).toBe(1);
    expect(events[0].data.id).toBe(link.id);

    const log = await deliveryLog(owner, id);
    expect(log.map((row) => [row.attempt, row.status])).toEqual([
      [3, 200],
      [2, null],
      [1, 500],
    ]);
    expect(log[1].error).toMatch(/timeout/i);
    expect(log[2].error).toMatch(/500/);
    const shown = (await call(owner, 'get', `/api/v1/webhooks/${id}`)).body.data as Record<string, unknown>;
    expect(shown).toMatchObject({ failures: 0, last_status: 200, enabled: 1 });
  });

  it('delivers everything to a receiver that was down for an hour, once it is back', async () => {
    const { id, secret, receiver } = await webhookTo(owner, ['link.created', 'link.clicked']);
    const made: number[] = [];
    receiver.answer(...Array.from({ length: 10_000 }, () => 503));
    for (let minute = 0; minute < 60; minute += 1) {
      if (minute % 10 === 0)
        made.push((await createLink(t, owner, { url: `https://example.com/down/${minute}` })).id);
      await deliver();
      clock.advance(MINUTE);
    }
    const failedSoFar = receiver.received.length;
    expect(failedSoFar).toBeGreaterThan(made.length);
    receiver.recover();
    for (let minute = 0; minute < 4 * 60; minute += 5) {
      clock.advance(5 * MINUTE);
      await deliver();
    }
    const delivered = receiver.received.slice(failedSoFar);
    const ids = new Set(
      (receiver.verified(secret, 'as-sent') as Event[]).slice(failedSoFar).map((event) => event.data.id),
    );
    expect([...ids].sort()).toEqual([...made].sort());
    expect(delivered.length).toBe(made.length);
    const shown = (await call(owner, 'get', `/api/v1/webhooks/${id}`)).body.data as Record<string, unknown>;
    expect(shown).toMatchObject({ enabled: 1, failures: 0, last_status: 200 });
  });

  it('gives up on a delivery after its last attempt, and disables a webhook after five days of failures', async () => {
    const { id, receiver } = await webhookTo(owner, ['link.created']);
    receiver.answer(...Array.from({ length: 1000 }, () => 500));
    await createLink(t, owner, { url: 'https://example.com/never' });
    await deliver();
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay);
      await deliver();
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    clock.advance(30 * 86_400_000);
    await deliver();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    // Five days after the first failure, the next failure disables it.
    await createLink(t, owner, { url: 'https://example.com/never-again' });
    await deliver();
    const shown = (await call(owner, 'get', `/api/v1/webhooks/${id}`)).body.data as Record<string, unknown>;
    expect(shown).toMatchObject({ enabled: 0, last_status: 500 });
    expect(shown.failures).toBe(MAX_ATTEMPTS + 1);
    const before = receiver.received.length;
    await createLink(t, owner, { url: 'https://example.com/disabled' });
    clock.advance(MINUTE);
    await deliver();
    expect(receiver.received).toHaveLength(before);
  });

  it('delivers link.clicked with every click, and link.limit_reached with the link when its limit was reached', async () => {
    const { secret, receiver } = await webhookTo(owner, ['link.clicked', 'link.limit_reached']);
    const link = await createLink(t, owner, { url: 'https://example.com/capped', clicks_limit: '3' });
    for (let n = 0; n < 5; n += 1) await t.http().get(`/${link.alias}`).set('User-Agent', UA.macSafari);
    await t.app.get(ClickWriter).settle();
    await deliver();
    const events = receiver.verified(secret, 'as-sent') as Event[];
    const clicks = events
      .filter((event) => event.type === 'link.clicked')
      .flatMap((event) => (event.data as { clicks: Record<string, unknown>[] }).clicks);
    expect(clicks).toHaveLength(3);
    expect(Object.keys(clicks[0])).toEqual([
      'link_id',
      'alias',
      'created_at',
      'referrer',
      'country',
      'city',
      'continent',
      'browser',
      'operating_system',
      'device',
      'language',
    ]);
    expect(clicks.every((click) => click.link_id === link.id && click.alias === link.alias)).toBe(true);
    for (const event of events) {
      const schema = event.type === 'link.clicked' ? 'LinkClickedEvent' : 'LinkEvent';
      expect(responseValidator().schemaProblem(schema, event)).toBeNull();
    }
    const reached = events.filter((event) => event.type === 'link.limit_reached');
    expect(reached).toHaveLength(1);
    expect(reached[0].data).toMatchObject({ id: link.id, clicks: 3, clicks_limit: 3 });
  });

  it('carries each click as the click export writes it: time, referrer, place, browser, system, device, language', async () => {
    const { secret, receiver } = await webhookTo(owner, ['link.clicked']);
    const link = await createLink(t, owner, { url: 'https://example.com/exported' });
    const visits = [
      {
        agent: UA.windowsChrome,
        from: IP.gb,
        referer: 'https://news.example.org/a?b="c"',
        language: 'fr-CH,fr;q=0.9',
      },
      { agent: UA.iPhoneSafari, from: IP.us, referer: 'https://xn--bcher-kva.example/', language: 'de' },
      { agent: UA.linuxFirefox, from: '192.0.2.1', referer: '', language: '' },
    ];
    for (const visit of visits) {
      const request = t
        .http()
        .get(`/${link.alias}`)
        .set('User-Agent', visit.agent)
        .set('X-Forwarded-For', visit.from);
      if (visit.referer !== '') void request.set('Referer', visit.referer);
      if (visit.language !== '') void request.set('Accept-Language', visit.language);
      expect((await request).status).toBe(302);
    }
    await t.app.get(ClickWriter).settle();
    await deliver();
    // The clicks may come in more than one event, and events in any order: oldest first, as the export writes them.
    const clicks = (receiver.verified(secret, 'as-sent') as Event[])
      .flatMap((event) => (event.data as { clicks: Record<string, unknown>[] }).clicks)
      .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
    const exported = await text(owner, `/api/v1/stats/${link.id}/export`);
    const [header, ...rows] = parse(exported.body as string);
    // The export writes an absent value as an empty cell; the event, as null.
    const asExported = clicks.map((click) => header.map((name) => (click[name] as string | null) ?? ''));
    expect(asExported).toEqual(rows);
    expect(clicks.map((click) => [click.link_id, click.alias, click.country, click.city])).toEqual([
      [link.id, link.alias, 'GB', 'London'],
      [link.id, link.alias, 'US', null],
      [link.id, link.alias, null, null],
    ]);
  });

  it('gathers the clicks of a batch into link.clicked events of at most 1,000, each in arrival order, none lost', async () => {
    const { secret, receiver } = await webhookTo(owner, ['link.clicked']);
    const first = await createLink(t, owner, { url: 'https://example.com/batch-a' });
    const second = await createLink(t, owner, { url: 'https://example.com/batch-b' });
    // Another account's link in the same batch: no webhook takes its clicks, so no event carries them.
    const elsewhere = await createLink(t, await createAccount(t, 'Webhooks elsewhere'), {
      url: 'https://example.com/batch-c',
    });
    const visitor = profileVisitor(
      {
        userAgent: UA.windowsChrome,
        acceptLanguage: 'en',
        referer: undefined,
        place: { country: null, city: null },
        doNotTrack: false,
      },
      { honorDoNotTrack: true, trackReferrer: true, trackCity: true },
    );
    const started = Date.UTC(2026, 0, 1);
    const order = [first.id, second.id, elsewhere.id];
    const clicks = Array.from({ length: 3600 }, (_, n) => ({
      linkId: order[n % 3],
      at: started + n,
      visitor,
      target: null,
    }));
    const recorded = await t.app
      .get(ClickRepository)
      .writeBatch(randomUUID(), clicks, { clicks: true, streams: false });
    expect(recorded).toBe(3600);
    await deliver();
    const events = (receiver.verified(secret, 'as-sent') as Event[]).filter(
      (event) => event.type === 'link.clicked',
    );
    const carried = events.map(
      (event) => (event.data as { clicks: { link_id: number; created_at: string }[] }).clicks,
    );
    expect(carried.every((batch) => batch.length > 0 && batch.length <= 1000)).toBe(true);
    const all = carried.flat();
    expect(all).toHaveLength(2400);
    expect(all.filter((click) => click.link_id === first.id)).toHaveLength(1200);
    expect(all.some((click) => click.link_id === elsewhere.id)).toBe(false);
    // Each event in arrival order; events may arrive in any order (deliveries run side by side).
    for (const batch of carried) {
      const times = batch.map((click) => click.created_at);
      expect(times).toEqual([...times].sort());
    }
    const times = all.map((click) => click.created_at);
    expect(new Set(times).size).toBe(2400);
  });

  it('sends a click event written by the previous version, its times as timestamps, as it sends one of its own', async () => {
    const { secret, receiver } = await webhookTo(owner, ['link.clicked']);
    const link = await createLink(t, owner, { url: 'https://example.com/upgraded' });
    const [{ id: profile }] = await t.dataSource.query<{ id: number }[]>(
      `SELECT (click_profile_ids('[["news.example",null,null,null,null,null,null,null]]'::jsonb))[1] AS id`,
    );
    // As an instance of the previous version writes it during a rolling update: times, no base or offsets.
    await t.dataSource.query(
      `INSERT INTO events (account_id, type, click_links, click_times, click_profiles)
       VALUES ($1, 'link.clicked', $2, $3, $4)`,
      [
        owner.id,
        [link.id, link.id],
        ['2026-11-26T12:00:00.250Z', '2026-11-26T12:00:01.004Z'],
        [profile, profile],
      ],
    );
    await deliver();
    const [event] = (receiver.verified(secret, 'as-sent') as Event[]).filter(
      (sent) => sent.type === 'link.clicked',
    );
    expect((event.data as { clicks: unknown[] }).clicks).toEqual([
      expect.objectContaining({
        link_id: link.id,
        alias: link.alias,
        created_at: '2026-11-26T12:00:00.250000Z',
        referrer: 'news.example',
      }),
      expect.objectContaining({ link_id: link.id, created_at: '2026-11-26T12:00:01.004000Z' }),
    ]);
  });
});
