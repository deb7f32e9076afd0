/**
 * Why a delivery failed, in a few words for its log (`error` in `GET /webhooks/{id}/deliveries`). Never the
 * secret, the signature, the URL (it may carry credentials) or an address the name led to (an internal name's
 * address is not the account's to learn); of the receiver's answer, its status and at most a short excerpt.
 */

/** A failure whose reason is known where it happens. */
export class DeliveryFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'DeliveryFailure';
  }
}

/** The deadline of the whole delivery passed before the receiver answered. */
export class DeliveryTimeout extends Error {
  constructor() {
    super('delivery timed out');
    this.name = 'DeliveryTimeout';
  }
}

/** `timeout after 10 s`, in seconds as a person reads them. */
export function timeoutReason(timeoutMs: number): string {
  return `timeout after ${Number((timeoutMs / 1000).toFixed(3))} s`;
}

/** Why the name of a webhook's host could not be resolved. */
export function resolutionReason(error: unknown): string {
  const code = errorCode(error);
  return code === 'ENOTFOUND' || code === 'ENODATA' ? 'host not found' : 'name resolution failed';
}

const REASON_OF_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network unreachable',
};

/** OpenSSL's certificate verdicts and Node's TLS errors: the code alone says what the receiver must fix. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;
/** A code is shown only when it has the shape of one, so no message text can pass as a code. */
const CODE_SHAPE = /^[A-Z][A-Z0-9_]{1,47}$/;

/** The reason for a failure before any answer: the deadline, the policy, the network or TLS. */
export function failureReason(error: unknown, timeoutMs: number): string {
  if (error instanceof DeliveryTimeout) return timeoutReason(timeoutMs);
  if (error instanceof DeliveryFailure) return error.reason;
  const code = errorCode(error);
  if (code === undefined || !CODE_SHAPE.test(code)) return 'request failed';
  if (code in REASON_OF_CODE) return REASON_OF_CODE[code];
  if (TLS_CODE.test(code)) return `TLS error: ${code}`;
  if (code.startsWith('HPE_')) return 'invalid HTTP response';
  return `request failed: ${code}`;
}

/** Null for a 2xx, which is delivered; else the status, and for a 4xx or 5xx the excerpt when there is one. */
export function statusReason(status: number, excerpt: string | null): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `HTTP ${status} (redirect not followed)`;
  return excerpt === null ? `HTTP ${status}` : `HTTP ${status}: ${excerpt}`;
}

/** Enough of an answer to tell `invalid signature` from `unknown event`, too little to carry a page away. */
export const EXCERPT_CHARS = 100;
const TEXTUAL = /^\s*(text\/|application\/([\w.+-]*\+)?(json|xml)\b)/i;

/**
 * The beginning of a receiver's answer as one line of text: only for a textual content type (or none), control,
 * format and line-separator characters folded to spaces, every `hidden` value replaced, at most
 * {@link EXCERPT_CHARS} characters; null when nothing readable remains.
 */
export function responseExcerpt(
  body: Buffer,
  contentType: string | undefined,
  hidden: readonly string[],
): string | null {
  if (contentType !== undefined && !TEXTUAL.test(contentType)) return null;
  let text = body.toString('utf8');
  // Before anything is cut: a receiver that echoes what it was sent must not show the signature back.
  for (const value of hidden) if (value !== '') text = text.replaceAll(value, '[redacted]');
  const line = text.replace(/[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').trim();
  if (line === '') return null;
  const characters = [...line];
  return characters.length > EXCERPT_CHARS ? `${characters.slice(0, EXCERPT_CHARS).join('')}…` : line;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
