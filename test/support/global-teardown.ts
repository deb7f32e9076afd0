import { deleteKeys } from './redis';
import { dropDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  // Once, however many tiers ran on it.
  if (process.env.TEST_DATABASE_READY !== '1') return;
  process.env.TEST_DATABASE_READY = 'dropped';
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  if (serverUrl !== undefined && serverUrl !== '' && process.env.DATABASE_URL !== undefined) {
    await dropDatabase(serverUrl, process.env.DATABASE_URL);
  }
  await globalThis.testEmbeddedDatabase?.close();
  const prefix = process.env.REDIS_KEY_PREFIX;
  if (prefix !== undefined && prefix.startsWith('shortlink-test-')) await deleteKeys(prefix);
}
