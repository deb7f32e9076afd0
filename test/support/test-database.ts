import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrations } from '../../src/database/migrate';

/** A database of its own on the server that `serverUrl` points at, dropped by {@link dropDatabase}. */
export async function createDatabase(serverUrl: string, prefix = 'shortlink_test'): Promise<string> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function migrate(url: string): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptions(url)).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** True when the tests run against a PostgreSQL server (DATABASE_URL), false on the embedded database. */
export function onRealPostgres(): boolean {
  return process.env.TEST_DATABASE_SERVER_URL !== undefined && process.env.TEST_DATABASE_SERVER_URL !== '';
}
