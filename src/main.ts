import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/app-config';
import { EmbeddedDatabaseBusyError } from './database/embedded-database';
import { createApp } from './app';

async function main(): Promise<void> {
  // Validate the settings before anything starts: a bad value names its variable and stops here.
  const config = loadConfig();
  const app = await createApp();
  await app.listen(config.port);
  process.stdout.write(`Listening on port ${config.port} (${config.appUrl})\n`);
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
