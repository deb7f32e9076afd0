import { createHmac, randomBytes } from 'node:crypto';

/** The prefix Standard Webhooks gives a secret, so that receivers' libraries read it as written. */
const SECRET_PREFIX = 'whsec_';
/** 256 bits, as strong as an API key; the specification asks for 24 to 64 bytes. */
const SECRET_BYTES = 32;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The headers of a Standard Webhooks delivery, lower case as HTTP/2 and Node write them. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A new webhook secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The key a secret stands for; throws, without echoing it, when it is not one this service would make. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  // Node's base64 decoder skips what it does not read: a damaged secret must fail, not sign with other bytes.
  const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new Error('not a webhook secret: expected whsec_ and the base64 of 24 to 64 bytes');
  }
  return key;
}

/**
 * The headers that sign one delivery of an event, as the Standard Webhooks specification defines them: the event
 * id, the time of sending in Unix seconds, and `v1,` with the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`,
 * keyed by the secret's decoded bytes. `body` is signed as the UTF-8 bytes that are sent.
 */
export function signatureHeaders(
  secret: string,
  eventId: string,
  body: string,
  timestampSeconds: number,
): WebhookSignatureHeaders {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`timestampSeconds must be whole seconds since the epoch, got ${timestampSeconds}`);
  }
  // The id is a header value and the first field of the signed text: no separator, no line break, nothing empty.
  if (!/^[\x21-\x7e]+$/.test(eventId) || eventId.includes('.')) {
    throw new RangeError('eventId must be printable ASCII without spaces or dots');
  }
  const timestamp = String(timestampSeconds);
  const signature = createHmac('sha256', secretKey(secret))
    .update(`${eventId}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
