import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A request a receiver got: its headers and its body as sent. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it answered with; unset while the answer is held, or when the sender left before it. */
  answered?: number;
}

/**
 * How the receiver answers the next request: a status, a status after a delay (a slow receiver), or never (it holds
 * the request until closed).
 */
export type Answer = number | 'hang' | { status: number; afterMs: number };

/**
 * A webhook receiver on a loopback port: it records every request and answers with the statuses it is told, in
 * turn (200 once they run out). It verifies nothing itself: tests verify signatures with the `standardwebhooks`
 * package, never with the service's own code.
 */
export class Receiver {
  readonly received: Received[] = [];
  private answers: Answer[] = [];
  private readonly held = new Set<() => void>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const receiver = new Receiver(createServer());
    receiver.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received: Received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
        receiver.received.push(received);
        const answer = receiver.answers.shift() ?? 200;
        if (answer === 'hang') {
          receiver.held.add(() => response.destroy());
          return;
        }
        const { status, afterMs } = typeof answer === 'number' ? { status: answer, afterMs: 0 } : answer;
        const send = () => {
          // A sender that is gone (it timed out, or its process died) is not answered: the answer would reach nobody.
          if (!request.socket.writable) return;
          response.once('finish', () => (received.answered = status));
          response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        };
        if (afterMs === 0) return send();
        const timer = setTimeout(() => {
          receiver.held.delete(release);
          send();
        }, afterMs);
        const release = () => {
          clearTimeout(timer);
          response.destroy();
        };
        receiver.held.add(release);
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** Forgets the statuses it was told: it answers 200 from now on. */
  recover(): void {
    this.answers = [];
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The statuses of the next requests, in order. */
  answer(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /** The events received, parsed, in order of arrival. */
  events<T = { id: string; type: string; created_at: string; data: unknown }>(): T[] {
    return this.received.map((request) => JSON.parse(request.body) as T);
  }

  /**
   * Each request verified against `secret` by the Standard Webhooks reference package: the parsed events. The
   * package refuses a timestamp five minutes from its now: `now` is the service's clock where a test moves it.
   */
  verified(secret: string, now: number | 'as-sent' = Date.now()): unknown[] {
    const webhook = new Webhook(secret);
    const realNow = Date.now;
    try {
      return this.received.map((request) => {
        const timestamp = String(request.headers['webhook-timestamp']);
        // 'as-sent': each request at its own time, for a test whose clock moved on between attempts.
        Date.now = () => (now === 'as-sent' ? Number(timestamp) * 1000 : now);
        return webhook.verify(request.body, {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': timestamp,
          'webhook-signature': String(request.headers['webhook-signature']),
        });
      });
    } finally {
      Date.now = realNow;
    }
  }

  /** Drops every request it holds unanswered (the sender sees the connection reset), and goes on receiving. */
  dropHeld(): void {
    for (const release of this.held) release();
    this.held.clear();
  }

  async close(): Promise<void> {
    this.dropHeld();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
