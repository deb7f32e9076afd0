import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` on a free loopback port and gives the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes `server` with its kept-alive connections, which would otherwise hold the close open. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** What a {@link scriptedServer} was asked since the test began, and how it answers the next request. */
export interface ScriptedServer {
  port: number;
  /** Requests received since the test began, each as `describe` wrote it. */
  readonly requests: string[];
  /** Connections accepted since the test began. */
  connections: number;
  handler: (request: IncomingMessage, response: ServerResponse) => void;
}

/** How a {@link scriptedServer} records a request, and whether it closes its connections after each test. */
export interface ScriptedServerOptions {
  describe?: (request: IncomingMessage) => string;
  /** For a client that must not reuse a connection a test left open; one with a kept-alive pool would meet it closed. */
  closeEachTest?: boolean;
}

/**
 * A loopback server for the tests of one `describe` block, whose answer each test sets (`handler`): started before
 * them, its record cleared before each, closed after them all.
 */
export function scriptedServer({
  describe = (request) => `${request.method ?? ''} ${request.url ?? ''}`,
  closeEachTest = false,
}: ScriptedServerOptions = {}): ScriptedServer {
  const served: ScriptedServer = {
    port: 0,
    requests: [],
    connections: 0,
    handler: (_request, response) => response.end(),
  };
  let server: Server;
  beforeAll(async () => {
    server = createServer((request, response) => {
      served.requests.push(describe(request));
      served.handler(request, response);
    });
    server.on('connection', () => (served.connections += 1));
    served.port = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    served.requests.length = 0;
    served.connections = 0;
  });
  if (closeEachTest) afterEach(() => server.closeAllConnections());
  return served;
}
