import { connect, type Channel, type ChannelModel } from 'amqplib';
import Redis from 'ioredis';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** The names the contract gives the streams (§10). */
const STREAM_KEY = 'shortlink:events';
const EXCHANGE = 'shortlink.events';
/** Stream entries read per XRANGE call: a `link.clicked` entry holds up to 1,000 clicks, some 250 KB. */
const STREAM_PAGE = 20;

/**
 * The `link.clicked` events one sink delivered, counted by event id: the clicks each carried and how many times it
 * came. Bodies are not parsed: the bench process shares the machine with the service it measures, so a delivery
 * costs it an id lookup and a count of `"link_id":`.
 */
export class EventTally {
  /** Clicks of each event id seen. */
  private readonly clicksOf = new Map<string, number>();
  deliveries = 0;

  add(body: string): void {
    const id = /"id":"(evt_[^"]+)"/.exec(body)?.[1];
    if (id === undefined || !body.includes('"type":"link.clicked"')) return;
    this.deliveries += 1;
    if (this.clicksOf.has(id)) return;
    let clicks = 0;
    for (let at = body.indexOf('"link_id":'); at !== -1; at = body.indexOf('"link_id":', at + 10))
      clicks += 1;
    this.clicksOf.set(id, clicks);
  }

  get events(): number {
    return this.clicksOf.size;
  }

  /** Deliveries of an event already seen. */
  get duplicates(): number {
    return this.deliveries - this.clicksOf.size;
  }

  /** Clicks of the distinct events. */
  get clicks(): number {
    let sum = 0;
    for (const clicks of this.clicksOf.values()) sum += clicks;
    return sum;
  }

  /** Event ids this tally has and another lacks. */
  missingFrom(other: EventTally): number {
    let missing = 0;
    for (const id of this.clicksOf.keys()) if (!other.clicksOf.has(id)) missing += 1;
    return missing;
  }

  clear(): void {
    this.clicksOf.clear();
    this.deliveries = 0;
  }
}

/**
 * A webhook receiver on a loopback port that answers 200 at once, or holds every request unanswered (a receiver
 * that stalls, so that deliveries are in flight when the service is killed).
 */
export class BenchReceiver {
  readonly tally = new EventTally();
  /** Requests held unanswered while `holding`. */
  held = 0;
  holding = false;
  private readonly waiting = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<BenchReceiver> {
    const server = createServer();
    const receiver = new BenchReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver.tally.add(Buffer.concat(chunks).toString('utf8'));
        if (!receiver.holding) {
          response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        }
        receiver.held += 1;
        receiver.waiting.add(response);
        response.once('close', () => receiver.waiting.delete(response));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Answers from now on; requests held so far are dropped (their sender is gone). */
  release(): void {
    this.holding = false;
    for (const response of this.waiting) response.destroy();
    this.waiting.clear();
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Every event published to the exchange from now on, held in a queue of the tap's own (exclusive, auto-deleted)
 * and read once the run is over, as the Redis stream is: the timed run pays for no consumer in this process.
 */
export class AmqpTap {
  readonly tally = new EventTally();

  private constructor(
    private readonly connection: ChannelModel,
    private readonly channel: Channel,
    private readonly queue: string,
  ) {}

  static async start(url: string): Promise<AmqpTap> {
    const connection = await connect(url);
    const channel = await connection.createChannel();
    await channel.assertExchange(EXCHANGE, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, EXCHANGE, 'link.clicked');
    return new AmqpTap(connection, channel, queue);
  }

  /** Counts what the queue holds now, taking each message off it. */
  async read(): Promise<void> {
    for (;;) {
      const message = await this.channel.get(this.queue, { noAck: true });
      if (message === false) return;
      this.tally.add(message.content.toString('utf8'));
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

/**
 * The entries added to the Redis stream after the tap started, read once the run is over; they are removed once
 * counted, so that a bench leaves no 250 KB entries behind.
 */
export class RedisTap {
  readonly tally = new EventTally();

  private constructor(
    private readonly redis: Redis,
    private after: string,
  ) {}

  static async start(url: string): Promise<RedisTap> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const [last] = (await redis.xrevrange(STREAM_KEY, '+', '-', 'COUNT', 1)) as [string, string[]][];
    return new RedisTap(redis, last?.[0] ?? '0-0');
  }

  /** Reads what was added since the last read, counts it, and deletes it from the stream. */
  async read(): Promise<void> {
    for (;;) {
      const entries = (await this.redis.xrange(STREAM_KEY, `(${this.after}`, '+', 'COUNT', STREAM_PAGE)) as [
        string,
        string[],
      ][];
      if (entries.length === 0) return;
      for (const [, fields] of entries) {
        const event = fields[fields.indexOf('event') + 1];
        if (event !== undefined) this.tally.add(event);
      }
      this.after = entries[entries.length - 1][0];
      await this.redis.xdel(STREAM_KEY, ...entries.map(([id]) => id));
    }
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/**
 * A client of the API's event stream (`GET /api/v1/events/stream`), as a dashboard holds one open: it counts the
 * clicks of `linkIds` in the `link.clicked` events it gets, by event id (an event twice is counted once, and
 * reported). Each frame costs it a scan for its id and its links' ids, not a parse.
 */
export class EventStreamTap {
  clicks = 0;
  events = 0;
  duplicates = 0;
  private readonly seen = new Set<string>();
  private buffer = '';

  private constructor(
    private readonly response: IncomingMessage,
    private readonly linkIds: ReadonlySet<number>,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.read(chunk));
  }

  /** Opens a stream of the key's account; fails unless it is answered 200 with an event stream. */
  static open(origin: string, apiKey: string, linkIds: ReadonlySet<number>): Promise<EventStreamTap> {
    const url = new URL('/api/v1/events/stream', origin);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(url, { headers: { Authorization: `Bearer ${apiKey}` } }, (response) => {
        if (
          response.statusCode !== 200 ||
          !String(response.headers['content-type']).startsWith('text/event-stream')
        ) {
          response.resume();
          reject(new Error(`The event stream answered ${response.statusCode}`));
          return;
        }
        resolve(new EventStreamTap(response, linkIds));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  /** Whether the service has ended the stream. */
  get ended(): boolean {
    return this.response.destroyed || this.response.readableEnded;
  }

  close(): void {
    this.response.destroy();
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n\n'); end !== -1; end = this.buffer.indexOf('\n\n')) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      if (!frame.includes('\nevent: link.clicked\n')) continue;
      const id = /^id: (.+)$/m.exec(frame)?.[1] ?? '';
      if (this.seen.has(id)) {
        this.duplicates += 1;
        continue;
      }
      this.seen.add(id);
      this.events += 1;
      for (const match of frame.matchAll(/"link_id":(\d+)/g)) {
        if (this.linkIds.has(Number(match[1]))) this.clicks += 1;
      }
    }
  }
}
