import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/app-config';
import { DATABASE_CONNECTION, type DatabaseConnection } from './database/database.module';
import { EmbeddedDatabaseBusyError } from './database/embedded-database';

/** How long a shutdown may take to drain requests in flight before the process gives up on them. */
const DRAIN_TIMEOUT_MS = 25_000;

/**
 * SIGTERM or SIGINT: stop accepting connections, finish the requests in flight, close the database (the
 * embedded one included) and exit 0. A second signal, or a drain past the timeout, exits at once with 1.
 */
function exitGracefully(app: INestApplication): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stderr.write(`${signal}: draining and stopping\n`);
    setTimeout(() => process.exit(1), DRAIN_TIMEOUT_MS).unref();
    app.close().then(
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
  // Migrated and serving: from now on the CLI may use the embedded database too.
  app.get<DatabaseConnection>(DATABASE_CONNECTION).embedded?.share();
  process.stdout.write(`Listening on port ${config.port}; public URL ${config.appUrl}\n`);
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
