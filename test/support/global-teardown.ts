import { dropDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  if (serverUrl !== undefined && serverUrl !== '' && process.env.DATABASE_URL !== undefined) {
    await dropDatabase(serverUrl, process.env.DATABASE_URL);
  }
  await globalThis.testEmbeddedDatabase?.close();
}
