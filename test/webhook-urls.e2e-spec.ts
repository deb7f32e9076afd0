import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { Receiver } from './support/receiver';

/**
 * The address policy of webhook URLs, with the default settings (private addresses not allowed): a URL that leads
 * to loopback, a private network or link-local is refused when the webhook is made or changed, and a receiver that
 * is reached only that way never gets a request, not even a test ping.
 */
describe('webhook URLs without WEBHOOK_ALLOW_PRIVATE_ADDRESSES', () => {
  let t: TestApp;
  let owner: TestAccount;
  let receiver: Receiver;
  const { call, json } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    owner = await createAccount(t, 'Webhook URLs');
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it.each([
    ['loopback', () => receiver.url],
    ['localhost by name', () => receiver.url.replace('127.0.0.1', 'localhost')],
    ['a private network', () => 'http://10.0.0.7/hooks'],
    ['link-local (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => 'http://[::1]:8080/hooks'],
    ['an IPv4-mapped loopback', () => 'http://[::ffff:127.0.0.1]/hooks'],
  ])('refuses %s on create with a 422 on url', async (_case, url) => {
    const response = await json(owner, 'post', '/api/v1/webhooks', {
      name: 'x',
      url: url(),
      events: ['link.created'],
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ url: ['The url must lead to public addresses only.'] });
  });

  it('refuses such a URL on update too, and keeps the one it had', async () => {
    const made = await json(owner, 'post', '/api/v1/webhooks', {
      name: 'public',
      url: 'https://93.184.215.14/hooks',
      events: ['link.created'],
    });
    expect(made.status).toBe(201);
    const changed = await json(owner, 'patch', `/api/v1/webhooks/${made.body.data.id}`, {
      url: receiver.url,
    });
    expect(changed.status).toBe(422);
    expect(Object.keys(changed.body.message as object)).toEqual(['url']);
    const shown = await call(owner, 'get', `/api/v1/webhooks/${made.body.data.id}`);
    expect(shown.body.data.url).toBe('https://93.184.215.14/hooks');
  });

  it('checks again at delivery: a webhook whose address became private is refused there, and nothing is sent', async () => {
    const made = await json(owner, 'post', '/api/v1/webhooks', {
      name: 'rebound',
      url: 'https://93.184.215.14/hooks',
      events: ['link.created'],
    });
    // As if its name now resolved to loopback: the row is changed behind the API's back.
    await t.dataSource.query('UPDATE webhooks SET url = $2 WHERE id = $1', [made.body.data.id, receiver.url]);
    const ping = await call(owner, 'post', `/api/v1/webhooks/${made.body.data.id}/test`);
    expect(ping.body.data).toMatchObject({ status: null, error: 'address not allowed' });
    expect(receiver.received).toEqual([]);
  });
});
