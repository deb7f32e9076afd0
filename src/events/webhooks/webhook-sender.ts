import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import {
  addressOf,
  type AddressPolicy,
  allowingPrivate,
  type CheckedAddress,
  PUBLIC_ADDRESSES_ONLY,
  requestPinned,
} from '../../common/outbound-address';
import {
  DeliveryFailure,
  DeliveryTimeout,
  failureReason,
  resolutionReason,
  responseExcerpt,
  statusReason,
} from './delivery-failure';
import type { WebhookSignatureHeaders } from './webhook-signature';

export interface WebhookSendOptions extends AddressPolicy {
  /** Lifts the address policy: any address a receiver's name resolves to (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES`). */
  allowPrivateAddresses: boolean;
  /** One deadline for all of a delivery: resolving, connecting, sending and the answer. */
  timeoutMs: number;
  /** The most of an answer's body that is read; then the connection is closed. */
  maxResponseBytes: number;
  /** Certificate authorities trusted instead of the system's, for a test's own receiver; unset in production. */
  ca?: string;
}

export const WEBHOOK_SEND_OPTIONS = Symbol('WEBHOOK_SEND_OPTIONS');

export const DEFAULT_WEBHOOK_SEND_OPTIONS: WebhookSendOptions = {
  ...PUBLIC_ADDRESSES_ONLY,
  allowPrivateAddresses: false,
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
};

/** What one delivery attempt came to, as the deliveries log records it. */
export interface DeliveryOutcome {
  /** The receiver's HTTP status; null when none came (refused, unreachable, timed out). */
  status: number | null;
  /** Null when delivered (a 2xx); else a short reason, safe to show the webhook's owner. */
  error: string | null;
  durationMs: number;
}

/** The receiver's answer, read as far as the delivery needs. */
interface Answer {
  status: number;
  contentType: string | undefined;
  body: Buffer;
}

const USER_AGENT = 'shortlink-webhooks';

/**
 * Sends one webhook delivery: a POST of the event's JSON with its signature headers, to the address its URL's host
 * resolves to now, checked by the address policy and connected to as checked (the Host header and TLS keep the
 * name). Never follows a redirect, never waits past the deadline, never reads more than `maxResponseBytes` of an
 * answer, and never throws: every failure is an outcome with a reason.
 */
@Injectable()
export class WebhookSender {
  constructor(@Inject(WEBHOOK_SEND_OPTIONS) private readonly options: WebhookSendOptions) {}

  async send(url: string, headers: WebhookSignatureHeaders, body: string): Promise<DeliveryOutcome> {
    const started = performance.now();
    const remainingMs = () => Math.max(0, this.options.timeoutMs - (performance.now() - started));
    const outcome = (status: number | null, error: string | null): DeliveryOutcome => ({
      status,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    try {
      const target = receiverUrl(url);
      const address = await this.addressOf(target, remainingMs());
      const answer = await this.post(target, address, headers, body, remainingMs());
      // An internal receiver, allowed only by WEBHOOK_ALLOW_PRIVATE_ADDRESSES, shows no words of its answer.
      const excerpt = this.options.allowAddress(address.address)
        ? responseExcerpt(answer.body, answer.contentType, signatureValues(headers))
        : null;
      return outcome(answer.status, statusReason(answer.status, excerpt));
    } catch (error) {
      return outcome(null, failureReason(error, this.options.timeoutMs));
    }
  }

  /**
   * Why a webhook may not be given this URL, or null when it may: the same scheme and address checks as every
   * delivery makes (a URL that passes now is checked again at each one, as its name may resolve elsewhere later).
   */
  async refusal(url: string): Promise<string | null> {
    try {
      await this.addressOf(receiverUrl(url), this.options.timeoutMs);
      return null;
    } catch (error) {
      const reason = failureReason(error, this.options.timeoutMs);
      return reason === 'address not allowed'
        ? 'The url must lead to public addresses only.'
        : `The url cannot be used: ${reason}.`;
    }
  }

  private addressOf(url: URL, deadlineMs: number): Promise<CheckedAddress> {
    return addressOf(url, allowingPrivate(this.options, this.options.allowPrivateAddresses), deadlineMs, {
      refused: () => new DeliveryFailure('address not allowed'),
      timedOut: () => new DeliveryTimeout(),
      unresolved: (error) => new DeliveryFailure(resolutionReason(error)),
    });
  }

  private post(
    url: URL,
    address: CheckedAddress,
    headers: WebhookSignatureHeaders,
    body: string,
    deadlineMs: number,
  ): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      let answered: (() => void) | null = null;
      const request = requestPinned(
        url,
        address,
        {
          method: 'POST',
          headers: requestHeaders(headers, body),
          ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
        },
        (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            request.destroy();
            resolve({
              status: response.statusCode ?? 0,
              contentType: response.headers['content-type'],
              body: Buffer.concat(chunks),
            });
          };
          answered = finish;
          response.on('data', (chunk: Buffer) => {
            const room = this.options.maxResponseBytes - size;
            if (room <= 0) return;
            // What lies past the cap is never kept, and the connection is closed as soon as it is reached.
            chunks.push(chunk.subarray(0, room));
            size += Math.min(chunk.length, room);
            if (size >= this.options.maxResponseBytes) finish();
          });
          response.on('end', finish);
          response.on('error', finish);
        },
      );
      // The status is the answer: once it came, the deadline only stops the reading of the body.
      const deadline = setTimeout(
        () => (answered === null ? request.destroy(new DeliveryTimeout()) : answered()),
        deadlineMs,
      );
      // A connection lost after the status came ends the reading, not the answer: the status stands.
      request.on('error', (error) => (answered === null ? reject(error) : answered()));
      request.on('close', () => {
        clearTimeout(deadline);
        if (answered === null) reject(new DeliveryFailure('connection closed without an answer'));
        else answered();
      });
      request.end(body);
    });
  }
}

/** The webhook's URL, parsed; only http and https are sent to. */
function receiverUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DeliveryFailure('invalid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new DeliveryFailure('URL scheme not allowed');
  }
  return parsed;
}

/** The signature headers, and those of every delivery. */
function requestHeaders(headers: WebhookSignatureHeaders, body: string): OutgoingHttpHeaders {
  return {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'user-agent': USER_AGENT,
  };
}

/** The signature, whole and each of its values: never shown back in an excerpt of the answer. */
function signatureValues(headers: WebhookSignatureHeaders): string[] {
  const whole = headers['webhook-signature'];
  const values = whole.split(/[\s,]+/).filter((part) => part.length >= 16);
  // The whole first, so that it is replaced before its parts.
  return [whole, ...values];
}
