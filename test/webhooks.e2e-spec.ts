import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, ISO_DATE, UNKNOWN_ID } from './support/api';
import type { Response } from 'supertest';
import { NOT_FOUND } from './support/contract';
import { Receiver, type Answer } from './support/receiver';
import { sleep } from './support/sleep';
import { unique } from './support/visitors';

/**
 * `/api/v1/webhooks` (contract §10): fields and envelopes, the secret shown only when made, validation, the test
 * ping and its log, secret rotation, and who may manage them. Deliveries from the outbox have their own file.
 */

const WEBHOOKS = '/api/v1/webhooks';
const WEBHOOK_FIELDS = [
  'id',
  'name',
  'url',
  'events',
  'enabled',
  'failures',
  'last_status',
  'last_delivery_at',
  'created_at',
  'updated_at',
];
const DELIVERY_FIELDS = ['id', 'event_id', 'type', 'attempt', 'status', 'error', 'duration_ms', 'created_at'];
const SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

interface WebhookData {
  id: number;
  secret?: string;
  [field: string]: unknown;
}

describe('Webhooks API', () => {
  let t: TestApp;
  let owner: TestAccount;
  let receiver: Receiver;
  const { call, form, json } = apiClient(() => t);

  async function makeWebhook(account: TestAccount, body: Record<string, unknown> = {}): Promise<WebhookData> {
    const response = await json(account, 'post', WEBHOOKS, {
      name: unique('Hook'),
      url: receiver.url,
      events: ['link.created'],
      ...body,
    });
    expect(`${response.status} ${JSON.stringify(response.body.message ?? '')}`).toBe('201 ""');
    return response.body.data as WebhookData;
  }

  beforeAll(async () => {
    // Receivers here listen on loopback, which only this setting lets a webhook reach.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
    owner = await createAccount(t, 'Webhooks API');
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('creates from a form: 201, every field in order, the secret this once', async () => {
    const response = await form(
      owner,
      'post',
      WEBHOOKS,
      `name=CRM&url=${encodeURIComponent(receiver.url)}&events[]=link.deleted&events[]=link.created`,
    );
    expect(response.status).toBe(201);
    const data = response.body.data as WebhookData;
    expect(Object.keys(data)).toEqual([...WEBHOOK_FIELDS, 'secret']);
    expect(data).toEqual({
      id: expect.any(Number),
      name: 'CRM',
      url: receiver.url,
      events: ['link.created', 'link.deleted'],
      enabled: 1,
      failures: 0,
      last_status: null,
      last_delivery_at: null,
      created_at: expect.stringMatching(ISO_DATE),
      updated_at: expect.stringMatching(ISO_DATE),
      secret: expect.stringMatching(SECRET),
    });
    expect(Buffer.from(data.secret!.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    const shown = await call(owner, 'get', `${WEBHOOKS}/${data.id}`);
    expect(Object.keys(shown.body.data as object)).toEqual(WEBHOOK_FIELDS);
    const listed = await call(owner, 'get', `${WEBHOOKS}?per_page=100`);
    expect(listed.text).not.toContain(data.secret!);
    expect(shown.text).not.toContain(data.secret!);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no name', { name: undefined }, 'name'],
    ['no url', { url: undefined }, 'url'],
    ['a url that is not http', { url: 'ftp://example.com/hook' }, 'url'],
    ['no events', { events: undefined }, 'events'],
    ['an empty event list', { events: [] }, 'events'],
    ['an unknown event', { events: ['link.created', 'link.exploded'] }, 'events'],
    ['ping, which only a test sends', { events: ['ping'] }, 'events'],
    ['an enabled that is no flag', { enabled: 'maybe' }, 'enabled'],
  ])('refuses %s with a 422 naming the field, and makes nothing', async (_case, change, field) => {
    const before = (await call(owner, 'get', WEBHOOKS)).body.meta.total as number;
    const body: Record<string, unknown> = {
      name: 'x',
      url: receiver.url,
      events: ['link.created'],
      ...change,
    };
    const response = await json(owner, 'post', WEBHOOKS, JSON.parse(JSON.stringify(body)));
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.message as object)).toEqual([field]);
    expect((await call(owner, 'get', WEBHOOKS)).body.meta.total).toBe(before);
  });

  it('updates with PUT and PATCH alike, and forgets failures when enabled again', async () => {
    const made = await makeWebhook(owner);
    const put = await json(owner, 'put', `${WEBHOOKS}/${made.id}`, {
      events: ['link.clicked', 'link.updated'],
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: made.name, events: ['link.updated', 'link.clicked'] });
    expect(put.body.data.secret).toBeUndefined();
    await t.dataSource.query(
      'UPDATE webhooks SET enabled = false, failures = 40, failing_since = now() WHERE id = $1',
      [made.id],
    );
    const patched = await form(owner, 'patch', `${WEBHOOKS}/${made.id}`, { enabled: '1', name: 'Again' });
    expect(patched.body.data).toMatchObject({ name: 'Again', enabled: 1, failures: 0 });
  });

  it('answers 404 for an unknown id and another account’s webhook, on every route', async () => {
    const other = await createAccount(t);
    const theirs = await makeWebhook(other);
    for (const id of [UNKNOWN_ID, theirs.id]) {
      for (const request of [
        call(owner, 'get', `${WEBHOOKS}/${id}`),
        json(owner, 'patch', `${WEBHOOKS}/${id}`, { name: 'x' }),
        call(owner, 'delete', `${WEBHOOKS}/${id}`),
        call(owner, 'post', `${WEBHOOKS}/${id}/secret`),
        call(owner, 'post', `${WEBHOOKS}/${id}/test`),
        call(owner, 'get', `${WEBHOOKS}/${id}/deliveries`),
      ]) {
        expect((await request).body).toEqual(NOT_FOUND);
      }
    }
    expect((await call(other, 'get', `${WEBHOOKS}/${theirs.id}`)).status).toBe(200);
  });

  it('sends a ping at once, signed, and answers with its attempt, which the log lists first', async () => {
    const made = await makeWebhook(owner, { events: ['link.deleted'] });
    const before = receiver.received.length;
    const response = await call(owner, 'post', `${WEBHOOKS}/${made.id}/test`);
    expect(response.status).toBe(200);
    const delivery = response.body.data as Record<string, unknown>;
    expect(Object.keys(delivery)).toEqual(DELIVERY_FIELDS);
    expect(delivery).toMatchObject({ type: 'ping', attempt: 1, status: 200, error: null });
    expect(delivery.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    const [ping] = receiver.verified(made.secret!).slice(before) as {
      id: string;
      type: string;
      data: unknown;
    }[];
    expect(ping).toMatchObject({ id: delivery.event_id, type: 'ping' });
    const log = await call(owner, 'get', `${WEBHOOKS}/${made.id}/deliveries`);
    expect(log.body.data[0]).toEqual(delivery);
    expect((await call(owner, 'get', `${WEBHOOKS}/${made.id}`)).body.data).toMatchObject({
      last_status: 200,
      failures: 0,
      last_delivery_at: expect.stringMatching(ISO_DATE),
    });
  });

  it('sends pings within the delivery slots: two at once to a webhook, the rest a 429 with Retry-After', async () => {
    const made = await makeWebhook(owner, { events: ['link.deleted'] });
    const before = receiver.received.length;
    receiver.answer(...Array<Answer>(20).fill('hang'));
    const answered: Response[] = [];
    const pings = Array.from({ length: 20 }, () =>
      call(owner, 'post', `${WEBHOOKS}/${made.id}/test`).then((answer) => answered.push(answer)),
    );
    // The two that took the slots are held by the receiver; every other one is answered meanwhile.
    const deadline = Date.now() + 30_000;
    while (answered.length < 18 && Date.now() < deadline) await sleep(20);
    expect(answered.map((answer) => answer.status)).toEqual(Array<number>(18).fill(429));
    expect(answered[0].body).toEqual({ message: 'Too Many Attempts.', status: 429 });
    expect(Number(answered[0].headers['retry-after'])).toBeGreaterThan(0);
    expect(receiver.received.length - before).toBe(2);
    receiver.recover();
    receiver.dropHeld();
    await Promise.all(pings);
    expect(answered.slice(18).map((answer) => answer.status)).toEqual([200, 200]);
    // The slots are given back: the next ping goes out.
    expect((await call(owner, 'post', `${WEBHOOKS}/${made.id}/test`)).body.data).toMatchObject({
      status: 200,
    });
  });

  it('logs a failed ping with its reason, and counts it', async () => {
    const made = await makeWebhook(owner, { url: 'http://127.0.0.1:9/nothing-listens' });
    const response = await call(owner, 'post', `${WEBHOOKS}/${made.id}/test`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ status: null, error: 'connection refused' });
    expect((await call(owner, 'get', `${WEBHOOKS}/${made.id}`)).body.data).toMatchObject({ failures: 1 });
  });

  it('rotates the secret: the new one signs from the next attempt on, the old one no more', async () => {
    const made = await makeWebhook(owner);
    const rotated = await call(owner, 'post', `${WEBHOOKS}/${made.id}/secret`);
    expect(rotated.status).toBe(200);
    const secret = rotated.body.data.secret as string;
    expect(secret).toMatch(SECRET);
    expect(secret).not.toBe(made.secret);
    expect(Object.keys(rotated.body.data as object)).toEqual([...WEBHOOK_FIELDS, 'secret']);
    const before = receiver.received.length;
    await call(owner, 'post', `${WEBHOOKS}/${made.id}/test`);
    const sent = receiver.received.slice(before);
    expect(sent).toHaveLength(1);
    const only = Object.assign(Object.create(Receiver.prototype) as Receiver, { received: sent });
    expect(only.verified(secret)).toHaveLength(1);
    expect(() => only.verified(made.secret!)).toThrow();
  });

  it('deletes: the delete envelope, then 404', async () => {
    const made = await makeWebhook(owner);
    const response = await call(owner, 'delete', `${WEBHOOKS}/${made.id}`);
    expect(response.body).toEqual({ id: made.id, object: 'webhook', deleted: true, status: 200 });
    expect((await call(owner, 'get', `${WEBHOOKS}/${made.id}`)).body).toEqual(NOT_FOUND);
  });

  it('refuses every webhook route to a key restricted to spaces: webhooks carry every link’s events', async () => {
    const space = await json(owner, 'post', '/api/v1/spaces', { name: unique('Space') });
    const key = await json(owner, 'post', '/api/v1/keys', {
      name: 'restricted',
      scopes: ['webhooks.write'],
      space_ids: [space.body.data.id],
    });
    const restricted = { ...owner, auth: `Bearer ${key.body.data.key as string}` };
    const made = await makeWebhook(owner);
    const forbidden = { message: 'This action is unauthorized.', status: 403 };
    expect((await call(restricted, 'get', WEBHOOKS)).body).toEqual(forbidden);
    expect((await call(restricted, 'get', `${WEBHOOKS}/${made.id}`)).body).toEqual(forbidden);
    const created = await json(restricted, 'post', WEBHOOKS, {
      name: 'x',
      url: receiver.url,
      events: ['link.created'],
    });
    expect(created.body).toEqual(forbidden);
  });
});
