import type { Response } from 'express';
import { once } from 'node:events';

/**
 * Streams a CSV answer: `header`, then the lines of each chunk as it comes, waiting for the client to take what
 * was sent before reading more (a slow download holds one chunk in memory, not the file). A failure before
 * anything was sent reaches the error filter as usual; after, the connection is cut, so that a truncated file
 * cannot pass for a whole one. A client that goes away stops the reading.
 */
export async function sendCsv<T>(
  response: Response,
  filename: string,
  header: string,
  chunks: AsyncGenerator<T[]>,
  lines: (chunk: T[]) => string,
): Promise<void> {
  let started = false;
  const start = () => {
    started = true;
    response.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    });
    response.write(header);
  };
  try {
    for await (const chunk of chunks) {
      if (!started) start();
      if (response.destroyed) break;
      if (!response.write(lines(chunk))) {
        await drained(response);
        if (response.destroyed) break;
      }
    }
  } catch (error) {
    if (!started) throw error;
    response.destroy(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  // Nothing found: the header alone.
  if (!started) start();
  response.end();
}

/** Until the client has taken what was written, or has gone; the listener of the other event is removed. */
async function drained(response: Response): Promise<void> {
  const settled = new AbortController();
  const { signal } = settled;
  try {
    await Promise.race([once(response, 'drain', { signal }), once(response, 'close', { signal })]);
  } finally {
    settled.abort();
  }
}
