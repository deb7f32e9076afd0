import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Extended-protocol messages that leave a sequence open until the client's Sync: Parse, Bind, Describe,
 * Execute, Close, Flush.
 */
const OPENS_SEQUENCE = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);

interface Item {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/**
 * The order in which the connections of the socket server reach PGlite's one session.
 *
 * The socket server's own queue interleaves messages of different connections whenever no transaction is open,
 * so one connection's Parse can land between another's Parse and Execute, and a query answers another's
 * statement (pglite issue 1046). It also stops for good after one failed message. This queue gives the session
 * to one connection from its first message to its Sync, and for as long as it keeps a transaction open; other
 * connections wait their turn, in order. A failed message fails alone.
 */
export class SessionQueue {
  private readonly items: Item[] = [];
  private owner: number | null = null;
  private running = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.items.push({ handlerId, message, onData, resolve, reject });
      void this.run();
    });
  }

  getQueueLength(): number {
    return this.items.length;
  }

  /** A connection went away: its waiting messages fail. */
  clearQueueForHandler(handlerId: number): void {
    for (let index = this.items.length - 1; index >= 0; index -= 1) {
      if (this.items[index].handlerId === handlerId) {
        this.items.splice(index, 1)[0].reject(new Error('Handler disconnected'));
      }
    }
  }

  /** A connection went away holding the session: roll back what it left open and let the others through. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    await this.db.runExclusive(async () => {
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    });
    this.owner = null;
    await this.run();
  }

  private next(): Item | undefined {
    if (this.owner === null) return this.items.shift();
    const index = this.items.findIndex((item) => item.handlerId === this.owner);
    return index === -1 ? undefined : this.items.splice(index, 1)[0];
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let item = this.next(); item !== undefined; item = this.next()) {
        let bytes = 0;
        const current = item;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
          current.resolve(bytes);
        } catch (error) {
          current.reject(error);
        }
        this.owner =
          OPENS_SEQUENCE.has(current.message[0]) || this.db.isInTransaction() ? current.handlerId : null;
      }
    } finally {
      this.running = false;
    }
  }
}

/** Puts a {@link SessionQueue} in place of the socket server's own queue; call before `start()`. */
export function useSessionQueue(server: PGLiteSocketServer, db: PGlite): void {
  (server as unknown as { queryQueue: SessionQueue }).queryQueue = new SessionQueue(db);
}
