import QueryStream from 'pg-query-stream';
import type { DataSource } from 'typeorm';
import type { DatabaseConnection } from './database.module';
import { limitTransaction, windowOf } from './server.repository';

/** How long one cursor may stay open: a download slower than this is cut rather than holding a snapshot on. */
export const CURSOR_TIMEOUT_MS = 10 * 60_000;

/**
 * The rows of a statement, `size` at a time, read through a database cursor on a connection of its own: memory
 * holds one chunk whatever the number of rows. The statement timeout of API requests does not fit a cursor that
 * lives as long as a download; its own is {@link CURSOR_TIMEOUT_MS}. How many are open at once is the caller's to
 * bound (`CsvExports`): each holds a pooled connection until its reader returns.
 */
export async function* cursorRows<T>(
  dataSource: DataSource,
  sql: string,
  values: unknown[],
  size: number,
  connection: DatabaseConnection,
): AsyncGenerator<T[]> {
  if (connection.embedded !== null) {
    yield* windowRows<T>(dataSource, sql, values, size);
    return;
  }
  const runner = dataSource.createQueryRunner('slave');
  let stream: QueryStream | undefined;
  try {
    await runner.startTransaction();
    await limitTransaction(runner, CURSOR_TIMEOUT_MS);
    // pg's client-side read timeout applies to a cursor too: this one's is the cursor's own.
    const query = Object.assign(new QueryStream(sql, values, { batchSize: size }), {
      query_timeout: CURSOR_TIMEOUT_MS + 1000,
    });
    const client = (await runner.connect()) as { query(submittable: QueryStream): QueryStream };
    stream = client.query(query);
    let chunk: T[] = [];
    for await (const row of stream as AsyncIterable<T>) {
      chunk.push(row);
      if (chunk.length === size) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
    stream = undefined;
    await runner.commitTransaction();
  } finally {
    if (stream !== undefined) stream.destroy();
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}

/**
 * The embedded database has one session for every connection, and a cursor would hold it for the whole download:
 * there, the rows come in windows of `size`, one statement each (the statement's own order decides the windows).
 */
async function* windowRows<T>(
  dataSource: DataSource,
  sql: string,
  values: unknown[],
  size: number,
): AsyncGenerator<T[]> {
  const windowed = windowOf(sql, values.length);
  for (let start = 0; ; start += size) {
    const rows = await dataSource.query<T[]>(windowed, [...values, size, start]);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
  }
}
