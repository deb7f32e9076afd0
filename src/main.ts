// First: when traces are on, the SDK must patch `http` and `pg` before anything requires them.
import { tracing } from './tracing/start';
import 'reflect-metadata';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createApp, startedMessage } from './app';
import { ConfigError, loadConfig } from './config/app-config';
import { warnWhenAutovacuumIsOff } from './database/autovacuum-check';
import { DATABASE_CONNECTION, type DatabaseConnection } from './database/database.module';
import { EmbeddedDatabaseBusyError } from './database/embedded-database';
import { MetricsServer } from './metrics/metrics-server';

/** How long a shutdown may take to drain requests in flight before the process gives up on them. */
const DRAIN_TIMEOUT_MS = 25_000;

/**
 * How long a request that a client has already sent may still be on its way to the process: in the network, or in
 * the kernel's queues, where on a loaded machine it waits tens of milliseconds even over loopback. After a signal the
 * listening socket stays open this long (closing it resets the connections the kernel has not handed over yet), and
 * a connection with no request in progress is closed once it has stayed silent this long.
 */
const IN_TRANSIT_MS = 250;

/**
 * Under `npm start`, npm relays the SIGINT or SIGTERM it gets to the server, which gets the signal itself too when it
 * went to the whole process group (Ctrl+C in a terminal, a process manager stopping a group): the same signal twice
 * within this time is one request to stop, not a second one that cuts the drain short.
 */
const RELAYED_SIGNAL_MS = 1_000;

interface Connection {
  /**
   * The response to its latest request: the one that says `Connection: close` once the process is stopping. Answers
   * go out in the order of their requests, so the connection has a request in progress until this one has finished.
   */
  latest: ServerResponse | undefined;
  /** Its bytesRead when last seen with no request in progress; undefined when it had one. */
  seenBytes: number | undefined;
}

/**
 * Keeps the connections of `server` in view, so that `drain()` can answer every request already sent: the listening
 * socket closes {@link IN_TRANSIT_MS} after the call; a connection with a request in progress gets its answer with
 * `Connection: close`, then closes; one that stays silent for {@link IN_TRANSIT_MS} is closed. The promise resolves
 * once every connection has closed. Not `server.close()`: it destroys at once a keep-alive connection whose next
 * request has arrived but is not read yet, which resets that request.
 */
function connectionDrain(server: Server): { drain: () => Promise<void> } {
  const connections = new Map<Socket, Connection>();
  let stopping = false;

  // The latest response on a connection closes it; an earlier one, pipelined, no longer does if not sent yet.
  const closeAfter = (connection: Connection, response: ServerResponse) => {
    const previous = connection.latest;
    if (previous !== undefined && previous !== response && !previous.headersSent) {
      previous.removeHeader('Connection');
    }
    if (!response.headersSent) response.setHeader('Connection', 'close');
  };

  const inProgress = (connection: Connection) =>
    connection.latest !== undefined && !connection.latest.writableFinished;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { latest: undefined, seenBytes: undefined });
    socket.once('close', () => connections.delete(socket));
  });
  // Ahead of the application's listener, so that the response is known before it can end. Nothing is added to the
  // response itself: this runs for every request, the redirects included.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket);
    if (connection === undefined) return;
    connection.seenBytes = undefined;
    if (stopping) closeAfter(connection, response);
    connection.latest = response;
  });

  // Closes the connections that have no request in progress and have read nothing since the last look.
  const closeSilent = () => {
    for (const [socket, connection] of connections) {
      if (inProgress(connection)) {
        connection.seenBytes = undefined;
      } else if (connection.seenBytes === socket.bytesRead) {
        socket.destroy();
      } else {
        connection.seenBytes = socket.bytesRead;
      }
    }
  };

  const drain = () =>
    new Promise<void>((resolve) => {
      stopping = true;
      for (const connection of connections.values()) {
        if (inProgress(connection)) closeAfter(connection, connection.latest!);
      }
      closeSilent();
      // Each look runs after a poll of the event loop, so that what has arrived on a connection has been read.
      const sweep = setInterval(() => setImmediate(closeSilent), IN_TRANSIT_MS);
      setTimeout(() => {
        // The listening socket only: the callback runs once every connection has closed.
        NetServer.prototype.close.call(server, () => {
          clearInterval(sweep);
          resolve();
        });
      }, IN_TRANSIT_MS);
    });
  return { drain };
}

/**
 * SIGTERM or SIGINT: stop accepting connections, answer every request already sent (keep-alive connections close
 * after their answer), then close the application and the database (the embedded one included) and exit 0. A
 * second signal, or a drain past the timeout, exits at once with 1; the same signal again within
 * {@link RELAYED_SIGNAL_MS} is taken for the first one relayed.
 */
function exitGracefully(app: INestApplication): void {
  const connections = connectionDrain(app.getHttpServer() as Server);
  let stopping: { signal: NodeJS.Signals; at: number } | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping !== undefined) {
      if (signal === stopping.signal && Date.now() - stopping.at < RELAYED_SIGNAL_MS) return;
      process.exit(1);
    }
    stopping = { signal, at: Date.now() };
    process.stderr.write(`${signal}: draining and stopping\n`);
    setTimeout(() => process.exit(1), DRAIN_TIMEOUT_MS).unref();
    connections
      .drain()
      .then(() => app.close())
      // The spans still buffered go out before the process ends.
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`Shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main(): Promise<void> {
  // Validate the settings before anything starts: a bad value names its variable and stops here.
  const config = loadConfig();
  const app = await createApp();
  exitGracefully(app);
  await app.listen(config.port);
  await app.get(MetricsServer).start();
  const connection = app.get<DatabaseConnection>(DATABASE_CONNECTION);
  // Migrated and serving: from now on the CLI may use the embedded database too.
  connection.embedded?.share();
  // A server that never vacuums slows lists down as links change; the embedded database is for small data.
  if (connection.embedded === null) await warnWhenAutovacuumIsOff(app.get(DataSource));
  // For the person starting the server, beside its other messages: stdout carries only the JSON log.
  process.stderr.write(startedMessage(config));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseBusyError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
