import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** How the proxy treats traffic right now. */
type Mode = 'forwarding' | 'frozen' | 'cut';

/** One client connection and its upstream twin. */
interface Pair {
  client: Socket;
  upstream: Socket;
  /** The first bytes the client sent (see {@link OPENING_BYTES}), to tell one connection from another. */
  opening: string;
  /** Bytes are dropped both ways and nothing is closed: see {@link TcpProxy.silence}. */
  silent: boolean;
}

/** Enough of a client's first bytes to hold a PostgreSQL start-up, its authentication and first statements. */
const OPENING_BYTES = 4096;

/**
 * A TCP proxy on a loopback port in front of another address (a database), for fault tests: it forwards bytes
 * both ways until told to stall or break the network.
 *
 * - {@link freeze}: no byte moves in either direction, but every socket stays open, as when the database host or
 *   the network hangs. New connections are accepted and stall the same way. What was sent meanwhile is delivered
 *   on {@link restore}, as TCP would once the network is back.
 * - {@link cut}: every connection is reset, and so is every new one, as when the database host is gone.
 * - {@link silence}: the connections that opened with a given text (`LISTEN visit_cache`) drop every byte both ways
 *   and are never closed, as when a firewall or NAT forgets a connection and drops its packets; others go on.
 * - {@link restore}: forwarding again.
 */
export class TcpProxy {
  private mode: Mode = 'forwarding';
  private readonly pairs = new Set<Pair>();

  private constructor(
    private readonly server: Server,
    private target: { host: string; port: number },
  ) {}

  /** Starts a proxy on 127.0.0.1 on a free port, forwarding to `host:port`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    server.on('connection', (socket) => proxy.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  /** Starts a proxy in front of the server of a postgres:// URL. */
  static forDatabase(databaseUrl: string): Promise<TcpProxy> {
    const url = new URL(databaseUrl);
    return TcpProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Client connections accepted since the start, those refused by {@link cut} excepted. */
  accepted = 0;

  /** Open client connections. */
  get connections(): number {
    return this.pairs.size;
  }

  /** `databaseUrl` with its host and port replaced by this proxy's. */
  urlFor(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  freeze(): void {
    this.mode = 'frozen';
    for (const { client, upstream } of this.pairs) {
      client.pause();
      upstream.pause();
    }
  }

  cut(): void {
    this.mode = 'cut';
    for (const pair of [...this.pairs]) this.reset(pair);
  }

  /** The open connections whose client sent `text` among its first bytes go silent; returns how many. */
  silence(text: string): number {
    let silenced = 0;
    for (const pair of this.pairs) {
      if (!pair.opening.includes(text)) continue;
      pair.silent = true;
      silenced += 1;
    }
    return silenced;
  }

  /** The open connections, not silenced, whose client sent `text` among its first bytes. */
  forwarding(text: string): number {
    return [...this.pairs].filter((pair) => !pair.silent && pair.opening.includes(text)).length;
  }

  /** Resets the open connections whose client sent `text` among its first bytes; returns how many. */
  cutWhere(text: string): number {
    const chosen = [...this.pairs].filter((pair) => pair.opening.includes(text));
    for (const pair of chosen) this.reset(pair);
    return chosen.length;
  }

  /** New connections go to `port` from now on; open ones stay where they are (a balancer's backup server). */
  retarget(port: number): void {
    this.target = { ...this.target, port };
  }

  /** Forwarding again; a silenced connection has lost bytes and cannot go on, so it is reset. */
  restore(): void {
    this.mode = 'forwarding';
    for (const pair of [...this.pairs]) if (pair.silent) this.reset(pair);
    for (const { client, upstream } of this.pairs) {
      client.resume();
      upstream.resume();
    }
  }

  /** Stops listening and ends every connection. */
  async close(): Promise<void> {
    for (const pair of [...this.pairs]) this.reset(pair);
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.mode === 'cut') {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.target);
    const pair: Pair = { client, upstream, opening: '', silent: false };
    this.accepted += 1;
    this.pairs.add(pair);
    if (this.mode === 'frozen') {
      client.pause();
      upstream.pause();
    }
    client.on('data', (chunk: Buffer) => {
      if (pair.opening.length < OPENING_BYTES) pair.opening += chunk.toString('latin1', 0, OPENING_BYTES);
    });
    this.forward(pair, client, upstream);
    this.forward(pair, upstream, client);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      // A failure on one side breaks the other too; a close on one side is passed on as an orderly end.
      socket.on('error', () => this.reset(pair));
      socket.on('close', () => {
        if (!other.destroyed && !pair.silent) other.end();
        if (client.destroyed && upstream.destroyed) this.pairs.delete(pair);
      });
    }
  }

  /** Copies `from` to `to` with backpressure, never resuming a socket while the proxy is frozen. */
  private forward(pair: Pair, from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (pair.silent || to.write(chunk)) return;
      from.pause();
      to.once('drain', () => {
        if (this.mode === 'forwarding') from.resume();
      });
    });
    from.on('end', () => {
      if (!pair.silent) to.end();
    });
  }

  /** Ends both sides at once with a TCP reset, as a dead route or host would. */
  private reset(pair: Pair): void {
    this.pairs.delete(pair);
    for (const socket of [pair.client, pair.upstream]) {
      if (socket.destroyed) continue;
      // Neither a connection still being made nor one already half-closed can be reset (the latter fails with
      // EINVAL and leaves its handle open): those are simply destroyed.
      if (socket.connecting || socket.writableEnded) socket.destroy();
      else socket.resetAndDestroy();
    }
  }
}
