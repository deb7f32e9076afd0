import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { generateWebhookSecret, signatureHeaders } from './webhook-signature';

const EVENT_ID = 'evt_0123456789abcdef0123456789abcdef';
const BODY = JSON.stringify({
  id: EVENT_ID,
  type: 'link.created',
  created_at: '2026-11-26T10:05:00.000000Z',
  data: { id: 5, title: 'Café – “quoted” 😀' },
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** What the reference library says of a delivery: `verified`, or the reason it refuses it. */
function verdict(secret: string, body: string, headers: Record<string, string>): string {
  try {
    new Webhook(secret).verify(body, headers);
    return 'verified';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.message;
    throw error;
  }
}

describe('generateWebhookSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('is different every time', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateWebhookSecret));

    expect(secrets.size).toBe(100);
  });
});

describe('signatureHeaders, as the standardwebhooks library verifies them', () => {
  it('signs a delivery the library verifies, and names the event and the time', () => {
    const secret = generateWebhookSecret();
    const timestamp = nowSeconds();
    const headers = signatureHeaders(secret, EVENT_ID, BODY, timestamp);

    expect(verdict(secret, BODY, { ...headers })).toBe('verified');
    expect(headers['webhook-id']).toBe(EVENT_ID);
    expect(headers['webhook-timestamp']).toBe(String(timestamp));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('gives the signature of the specification’s example', () => {
    // The worked example of the Standard Webhooks specification and its reference libraries.
    const headers = signatureHeaders(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      '{"test": 2432232314}',
      1614265330,
    );

    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it.each([
    ['a changed character', BODY.replace('Café', 'Cafe')],
    ['a byte added', `${BODY} `],
    ['an empty body', ''],
  ])('is refused with a tampered body: %s', (_label, tampered) => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders(secret, EVENT_ID, BODY, nowSeconds());

    expect(verdict(secret, tampered, { ...headers })).toBe('No matching signature found');
  });

  it('is refused with another event id or timestamp in the headers', () => {
    const secret = generateWebhookSecret();
    const timestamp = nowSeconds();
    const headers = signatureHeaders(secret, EVENT_ID, BODY, timestamp);

    expect(verdict(secret, BODY, { ...headers, 'webhook-id': 'evt_other' })).toBe(
      'No matching signature found',
    );
    expect(verdict(secret, BODY, { ...headers, 'webhook-timestamp': String(timestamp - 1) })).toBe(
      'No matching signature found',
    );
  });

  it('is refused with a wrong secret', () => {
    const headers = signatureHeaders(generateWebhookSecret(), EVENT_ID, BODY, nowSeconds());

    expect(verdict(generateWebhookSecret(), BODY, { ...headers })).toBe('No matching signature found');
  });

  it('stops verifying with the old secret once the secret is rotated', () => {
    const old = generateWebhookSecret();
    const rotated = generateWebhookSecret();
    const before = signatureHeaders(old, EVENT_ID, BODY, nowSeconds());
    const after = signatureHeaders(rotated, EVENT_ID, BODY, nowSeconds());

    expect(verdict(old, BODY, { ...before })).toBe('verified');
    expect(verdict(rotated, BODY, { ...after })).toBe('verified');
    expect(verdict(old, BODY, { ...after })).toBe('No matching signature found');
  });

  describe('the timestamp, which the library holds to five minutes either way against replay', () => {
    it.each([
      ['4 minutes old', -240],
      ['4 minutes ahead', 240],
    ])('is verified when %s', (_label, offset) => {
      const secret = generateWebhookSecret();
      const headers = signatureHeaders(secret, EVENT_ID, BODY, nowSeconds() + offset);

      expect(verdict(secret, BODY, { ...headers })).toBe('verified');
    });

    it.each([
      ['6 minutes old, a replayed delivery', -360, 'Message timestamp too old'],
      ['a day old', -86_400, 'Message timestamp too old'],
      ['6 minutes ahead', 360, 'Message timestamp too new'],
    ])('is refused when %s', (_label, offset, reason) => {
      const secret = generateWebhookSecret();
      const headers = signatureHeaders(secret, EVENT_ID, BODY, nowSeconds() + offset);

      expect(verdict(secret, BODY, { ...headers })).toBe(reason);
    });
  });

  it('signs the same delivery the same way: a retry at the same second carries the same signature', () => {
    const secret = generateWebhookSecret();
    const timestamp = nowSeconds();

    expect(signatureHeaders(secret, EVENT_ID, BODY, timestamp)).toEqual(
      signatureHeaders(secret, EVENT_ID, BODY, timestamp),
    );
    expect(signatureHeaders(secret, EVENT_ID, BODY, timestamp + 1)['webhook-signature']).not.toBe(
      signatureHeaders(secret, EVENT_ID, BODY, timestamp)['webhook-signature'],
    );
  });
});

describe('signatureHeaders refuses what it cannot sign safely', () => {
  const SECRET = generateWebhookSecret();
  const DAMAGED = `${SECRET.slice(0, 10)}!${SECRET.slice(11)}`;

  it.each([
    ['no prefix', SECRET.slice('whsec_'.length)],
    ['a character outside base64', DAMAGED],
    ['fewer than 24 bytes', `whsec_${Buffer.alloc(16, 1).toString('base64')}`],
    ['more than 64 bytes', `whsec_${Buffer.alloc(65, 1).toString('base64')}`],
    ['nothing after the prefix', 'whsec_'],
  ])('a secret with %s, with a message that never echoes it', (_label, secret) => {
    expect(() => signatureHeaders(secret, EVENT_ID, BODY, nowSeconds())).toThrow(
      /^not a webhook secret: expected whsec_ and the base64 of 24 to 64 bytes$/,
    );
  });

  it.each([1.5, -1, Number.NaN])('a timestamp of %s', (timestamp) => {
    expect(() => signatureHeaders(SECRET, EVENT_ID, BODY, timestamp)).toThrow(RangeError);
  });

  it.each(['', 'evt with space', 'evt.1', 'evt\r\nx-injected: 1'])('the event id %j', (eventId) => {
    expect(() => signatureHeaders(SECRET, eventId, BODY, nowSeconds())).toThrow(RangeError);
  });
});
