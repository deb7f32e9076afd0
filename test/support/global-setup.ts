import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { openMemoryDatabase, type EmbeddedDatabase } from '../../src/database/embedded-database';
import { testRedisUrl } from './redis';
import { createDatabase, migrate } from './test-database';

declare global {
  var testEmbeddedDatabase: EmbeddedDatabase | undefined;
}

/**
 * One throw-away database for the run: created on DATABASE_URL's server when it is set, else an in-memory
 * embedded database. Tests isolate themselves by making fresh accounts, so workers can share it.
 */
export default async function globalSetup(): Promise<void> {
  // The API and process tiers share it: the first of them to start makes it.
  if (process.env.TEST_DATABASE_READY === '1') return;
  process.env.TEST_DATABASE_READY = '1';
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl !== undefined && serverUrl !== '') {
    process.env.TEST_DATABASE_SERVER_URL = serverUrl;
    process.env.DATABASE_URL = await createDatabase(serverUrl);
  } else {
    globalThis.testEmbeddedDatabase = await openMemoryDatabase();
    process.env.DATABASE_URL = globalThis.testEmbeddedDatabase.url;
  }
  await migrate(process.env.DATABASE_URL);
  // The first app started on an empty database makes an account; with a key given, it prints nothing.
  process.env.INITIAL_API_KEY = `test_${randomBytes(24).toString('hex')}`;
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
  // Tests send far more visits from one address than any person: those of the visitor limit set their own.
  process.env.VISITOR_RATE_LIMIT_PER_MINUTE = '0';
  // No test reaches the internet: links' targets are checked only where a test turns the checks on.
  process.env.LINK_CHECKS = 'false';
  // Every app and server of the run gets a metrics port of its own: any free one.
  process.env.METRICS_PORT = '0';
  // With REDIS_URL, the limits of the run's apps and servers are in Redis, under keys of the run's own (each app and
  // each group of servers below them, see app.ts and process.ts), deleted by the teardown.
  if (testRedisUrl() !== undefined) {
    process.env.REDIS_KEY_PREFIX = `shortlink-test-${Date.now()}-${randomBytes(3).toString('hex')}:`;
  }
  // The process tests (CLI, embedded server) run the built program.
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'ensure-build.js')], {
    stdio: 'inherit',
  });
}
