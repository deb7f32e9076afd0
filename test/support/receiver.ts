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
}

/** How the receiver answers the next request: a status, or never (it holds the request until closed). */
export type Answer = number | 'hang';

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
        receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = receiver.answers.shift() ?? 200;
        if (answer === 'hang') {
          receiver.held.add(() => response.destroy());
          return;
        }
        response.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
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

  async close(): Promise<void> {
    for (const release of this.held) release();
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
