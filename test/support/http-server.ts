import type { Server } from 'node:http';
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
