import { Inject, Injectable, Module } from '@nestjs/common';
import type { Response } from 'express';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { exportsConfig, type ExportsConfig } from '../config/app-config';
import { TooManyAttemptsException } from './exceptions';

/** A CSV download: its file name, its header line, and its lines, a chunk of rows at a time. */
export interface CsvFile<T> {
  filename: string;
  header: string;
  chunks: AsyncGenerator<T[]>;
  lines: (chunk: T[]) => string;
}

/**
 * Bytes written at a time: each must be taken by the client within the stall timeout, so a client is judged by
 * what it takes, whatever the size of a chunk of rows.
 */
const PIECE = 64 * 1024;

/**
 * The CSV downloads of one instance. Each streams from a database cursor that holds a pooled connection for as long
 * as its client reads, so there are at most `EXPORT_SLOTS` at once, and at most `EXPORT_SLOTS_PER_ACCOUNT` for one
 * account, so that one account cannot keep every other from exporting. A client that stops reading loses its
 * export after `EXPORT_STALL_TIMEOUT_MS`, and with it the slot and the connection.
 */
@Injectable()
export class CsvExports {
  private open = 0;
  private readonly openByAccount = new Map<number, number>();

  constructor(@Inject(exportsConfig.KEY) private readonly config: ExportsConfig) {}

  /** Streams the file to the account's client, in a slot of its own; none free is a 429 before anything is sent. */
  async send<T>(response: Response, accountId: number, file: CsvFile<T>): Promise<void> {
    const held = this.openByAccount.get(accountId) ?? 0;
    if (this.open >= this.config.exportSlots || held >= this.config.exportSlotsPerAccount) {
      // By then, a slot whose client stopped reading is free.
      throw new TooManyAttemptsException(this.config.exportStallTimeoutMs);
    }
    this.open += 1;
    this.openByAccount.set(accountId, held + 1);
    try {
      await sendCsv(response, file, this.config.exportStallTimeoutMs);
    } finally {
      this.open -= 1;
      const left = (this.openByAccount.get(accountId) ?? 1) - 1;
      if (left === 0) this.openByAccount.delete(accountId);
      else this.openByAccount.set(accountId, left);
    }
  }
}

@Module({ providers: [CsvExports], exports: [CsvExports] })
export class CsvExportModule {}

/**
 * Streams a CSV answer: the header, then the lines of each chunk as it comes, waiting for the client to take what
 * was sent before reading more (a slow download holds one chunk in memory, not the file). A failure before
 * anything was sent reaches the error filter as usual; after, the connection is cut, so that a truncated file
 * cannot pass for a whole one. A client that goes away, or takes nothing for `stallTimeoutMs`, stops the reading
 * (and the reader's cursor is closed, as the loop leaves it).
 */
export async function sendCsv<T>(
  response: Response,
  file: CsvFile<T>,
  stallTimeoutMs: number,
): Promise<void> {
  let started = false;
  const start = () => {
    started = true;
    response.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'no-store',
    });
    response.write(file.header);
  };
  try {
    for await (const chunk of file.chunks) {
      if (!started) start();
      if (!(await written(response, file.lines(chunk), stallTimeoutMs))) return;
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

/**
 * Writes the text a piece at a time, each taken by the client within `stallTimeoutMs`; false when the client has
 * gone, or has taken too long and the connection was cut.
 */
async function written(response: Response, text: string, stallTimeoutMs: number): Promise<boolean> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += PIECE) {
    if (response.destroyed) return false;
    if (response.write(bytes.subarray(at, at + PIECE))) continue;
    if (!(await drained(response, stallTimeoutMs))) {
      response.destroy();
      return false;
    }
  }
  return !response.destroyed;
}

/**
 * Until the client has taken what was written (true), has gone (true: the caller sees it destroyed), or
 * `timeoutMs` has passed (false); the listeners and the timer of the others are removed.
 */
async function drained(response: Response, timeoutMs: number): Promise<boolean> {
  const settled = new AbortController();
  const { signal } = settled;
  try {
    return await Promise.race([
      once(response, 'drain', { signal }).then(() => true),
      once(response, 'close', { signal }).then(() => true),
      delay(timeoutMs, false, { signal }),
    ]);
  } finally {
    settled.abort();
  }
}
