import type { Response } from 'express';
import { Writable } from 'node:stream';
import type { ExportsConfig } from '../config/app-config';
import { CsvExports, type CsvFile } from './csv-stream';
import { TooManyAttemptsException } from './exceptions';

/** A response whose client takes every byte at once, or none at all. */
class FakeResponse extends Writable {
  readonly received: Buffer[] = [];

  constructor(private readonly reading: boolean) {
    super({ highWaterMark: 16 * 1024 });
  }

  status(): this {
    return this;
  }

  set(): this {
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.received.push(chunk);
    // A client that stopped reading never takes the bytes: the write never completes.
    if (this.reading) done();
  }
}

/** A file whose rows come when the test says so, and which notes when its reader was closed. */
function gatedFile(
  rows: number,
  rowBytes = 10,
): { file: CsvFile<string>; open: () => void; closed: Promise<void> } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let close!: () => void;
  const closed = new Promise<void>((resolve) => (close = resolve));
  async function* chunks(): AsyncGenerator<string[]> {
    try {
      await gate;
      for (let i = 0; i < rows; i += 1) yield ['x'.repeat(rowBytes)];
    } finally {
      close();
    }
  }
  return {
    file: { filename: 'f.csv', header: 'h\n', chunks: chunks(), lines: (chunk) => `${chunk.join('\n')}\n` },
    open,
    closed,
  };
}

const CONFIG: ExportsConfig = { exportSlots: 3, exportSlotsPerAccount: 2, exportStallTimeoutMs: 20 };

function send(exports: CsvExports, accountId: number, file: CsvFile<string>, reading = true) {
  const response = new FakeResponse(reading);
  return { response, done: exports.send(response as unknown as Response, accountId, file) };
}

describe('CsvExports', () => {
  it('refuses an account past its own slots with a 429 and Retry-After, and lets another account through', async () => {
    const exports = new CsvExports(CONFIG);
    const held = [gatedFile(1), gatedFile(1)];
    const sends = held.map(({ file }) => send(exports, 1, file));

    const refused = gatedFile(1);
    const error: unknown = await send(exports, 1, refused.file).done.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TooManyAttemptsException);
    expect((error as TooManyAttemptsException).getStatus()).toBe(429);
    expect((error as TooManyAttemptsException).headers['Retry-After']).toBe('1');

    const other = gatedFile(1);
    const otherSend = send(exports, 2, other.file);
    other.open();
    await otherSend.done;
    expect(Buffer.concat(otherSend.response.received).toString()).toBe(`h\n${'x'.repeat(10)}\n`);

    // A finished export gives its slot back.
    held[0].open();
    await sends[0].done;
    const again = gatedFile(0);
    again.open();
    await send(exports, 1, again.file).done;
    held[1].open();
    await sends[1].done;
  });

  it('refuses every account once the instance’s slots are taken', async () => {
    const exports = new CsvExports(CONFIG);
    const held = [gatedFile(1), gatedFile(1), gatedFile(1)];
    const sends = [
      send(exports, 1, held[0].file),
      send(exports, 1, held[1].file),
      send(exports, 2, held[2].file),
    ];
    await expect(send(exports, 3, gatedFile(1).file).done).rejects.toBeInstanceOf(TooManyAttemptsException);
    for (const { open } of held) open();
    await Promise.all(sends.map(({ done }) => done));
  });

  it('ends an export whose client takes nothing, closes its reader and frees its slot', async () => {
    const exports = new CsvExports({ ...CONFIG, exportSlotsPerAccount: 1 });
    // More than a socket's buffer takes without a reader: several pieces of 64 KB.
    const stalled = gatedFile(4, 100_000);
    const { response, done } = send(exports, 1, stalled.file, false);
    stalled.open();
    await done;
    await stalled.closed;
    expect(response.destroyed).toBe(true);

    const next = gatedFile(1);
    next.open();
    await send(exports, 1, next.file).done;
  });
});
