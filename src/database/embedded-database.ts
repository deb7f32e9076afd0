import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { connect, type AddressInfo, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { useSessionQueue } from './pglite-session-queue';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) inside this process, served over the
 * PostgreSQL wire protocol on a loopback port, so that `pg` and TypeORM use it exactly as a real server.
 *
 * One process owns a data directory at a time. The owner records its pid and port in `embedded.lock`; any other
 * process (the CLI while the server runs) connects to that port instead of opening the files itself.
 */
export interface EmbeddedDatabase {
  /** A postgres:// URL for `pg`. */
  url: string;
  /** True when this process opened the files; false when it connects to another process's database. */
  owner: boolean;
  /**
   * Lets other processes connect, by writing the port into the lock. The server calls it once it serves, its
   * schema migrated and its first account made: one PGlite session cannot keep two processes' migrations apart
   * (an advisory lock taken on it is the same session's for all), so a CLI connecting earlier would run them again
   * beside it. Until then, others wait as for an owner still starting.
   */
  share(): void;
  close(): Promise<void>;
}

export class EmbeddedDatabaseBusyError extends Error {
  override name = 'EmbeddedDatabaseBusyError';
}

interface LockContent {
  pid: number;
  port: number | null;
  startedAt: number;
  /**
   * Whether other processes may connect to this owner's port. The server's database is shared; a CLI that owns
   * the files is short-lived and closes them when its command is done, so others wait for it instead.
   */
  shared: boolean;
}

/** The PostgreSQL extensions the migrations create, compiled in for PGlite. */
const EXTENSIONS = { pg_trgm };

/** More than the pool of the server plus a CLI, so a connection is never refused for want of a slot. */
const MAX_CONNECTIONS = 64;
const STARTUP_GRACE_MS = 60_000;
const POLL_MS = 200;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

function readLock(path: string): LockContent | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockContent>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      port: parsed.port ?? null,
      startedAt: parsed.startedAt ?? 0,
      shared: parsed.shared ?? true,
    };
  } catch {
    return null;
  }
}

function urlFor(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

/** Serves a PGlite instance on a random loopback port. */
async function serve(db: PGlite): Promise<{ port: number; stop: () => Promise<void> }> {
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: MAX_CONNECTIONS });
  useSessionQueue(server, db);
  await server.start();
  // The socket server keeps its net.Server private; the port is only known once it listens.
  const address = (server as unknown as { server: Server }).server.address() as AddressInfo;
  return { port: address.port, stop: () => server.stop() };
}

/** An in-memory database for tests: nothing on disk, gone when closed. */
export async function openMemoryDatabase(): Promise<EmbeddedDatabase> {
  const db = await PGlite.create({ extensions: EXTENSIONS });
  const { port, stop } = await serve(db);
  return {
    url: urlFor(port),
    owner: true,
    share: () => undefined,
    close: async () => {
      await stop();
      await db.close();
    },
  };
}

export interface OpenOptions {
  /** Connect to the database of another running process instead of failing (the CLI does; the server does not). */
  allowShared: boolean;
  log?: (message: string) => void;
  /** PostgreSQL's `shared_buffers`, in MB (16 unless told). */
  sharedBuffersMb?: number;
  /** false (the default): V8 compiles PGlite's WebAssembly with its baseline compiler only (see {@link startPGlite}). */
  optimizeWasm?: boolean;
}

/**
 * Opens PGlite on `dataDir` with the memory settings of `options`.
 *
 * PGlite's WebAssembly memory starts at 128 MB (its smallest) and never shrinks; PostgreSQL's default 128 MB of
 * `shared_buffers` grew it to 189 MB. Other memory settings (`work_mem`, `temp_buffers`, `maintenance_work_mem`) are
 * taken only while a statement needs them, and `wal_buffers` follows `shared_buffers`, so they stay as they are.
 *
 * Without `optimizeWasm`, V8 runs PGlite's 9 MB of WebAssembly as its baseline compiler (Liftoff) made it: its
 * optimizing compiler (TurboFan) would recompile the hot functions in the background and keep both, 80 MB more
 * resident once warm, 150 MB on the first start. The flag applies to WebAssembly compiled afterwards in this process,
 * and this process runs no other.
 */
async function startPGlite(dataDir: string, options: OpenOptions): Promise<PGlite> {
  if (!options.optimizeWasm) setFlagsFromString('--liftoff-only');
  return PGlite.create({
    dataDir,
    extensions: EXTENSIONS,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb ?? 16}MB`],
  });
}

/**
 * Opens the database under `dataDir`: as its owner, or (with `allowShared`) as a client of the process that owns
 * it. A lock left by a process that no longer exists is removed; a live owner that does not answer is reported,
 * never waited on forever.
 */
export async function openEmbeddedDatabase(dataDir: string, options: OpenOptions): Promise<EmbeddedDatabase> {
  const directory = resolve(dataDir);
  mkdirSync(directory, { recursive: true });
  const lockPath = join(directory, 'embedded.lock');
  const deadline = Date.now() + STARTUP_GRACE_MS;
  // A process that would use another's database (the CLI) does not offer its own: it closes it when it is done.
  const shared = !options.allowShared;

  for (;;) {
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(lockPath);
      if (holder === null || !isAlive(holder.pid) || holder.pid === process.pid) {
        if (holder !== null && holder.pid !== process.pid) {
          options.log?.(`Removing the stale lock of process ${holder.pid}, which is gone (${lockPath})`);
        }
        // An unreadable lock is either being written right now or truncated by a crash: give it a moment.
        if (holder === null && Date.now() - modifiedAt(lockPath) < 2000) {
          await sleep(POLL_MS);
          continue;
        }
        rmSync(lockPath, { force: true });
        continue;
      }
      // A CLI owner (not shared) is waited for like an owner still starting: it will be done in a moment.
      if (holder.shared && holder.port !== null && (await portAnswers(holder.port))) {
        if (options.allowShared) {
          return {
            url: urlFor(holder.port),
            owner: false,
            share: () => undefined,
            close: () => Promise.resolve(),
          };
        }
        throw new EmbeddedDatabaseBusyError(
          `The embedded database in ${directory} is in use by process ${holder.pid}. ` +
            'Stop that process, or set DATA_DIR to another directory, or DATABASE_URL to a PostgreSQL server.',
        );
      }
      if (Date.now() > deadline) {
        throw new EmbeddedDatabaseBusyError(
          `The embedded database in ${directory} is locked by process ${holder.pid}, which does not answer. ` +
            `If no instance of this service is running, delete ${lockPath} and start again.`,
        );
      }
      await sleep(POLL_MS);
      continue;
    }

    try {
      writeSync(
        fd,
        JSON.stringify({ pid: process.pid, port: null, startedAt: Date.now(), shared } satisfies LockContent),
      );
    } finally {
      closeSync(fd);
    }
    return own(directory, lockPath, shared, options);
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

async function own(
  directory: string,
  lockPath: string,
  shared: boolean,
  options: OpenOptions,
): Promise<EmbeddedDatabase> {
  const releaseLock = () => {
    if (readLock(lockPath)?.pid === process.pid) rmSync(lockPath, { force: true });
  };
  // A crash that still runs exit handlers (an uncaught error) must not leave a lock behind.
  process.once('exit', releaseLock);
  try {
    const db = await startPGlite(join(directory, 'pgdata'), options);
    const { port, stop } = await serve(db);
    const recordPort = () =>
      writeFileSync(
        lockPath,
        JSON.stringify({ pid: process.pid, port, startedAt: Date.now(), shared } satisfies LockContent),
      );
    // Until shared, others see a lock without a port and wait, as for an owner still starting.
    if (!shared) recordPort();
    let closed = false;
    return {
      url: urlFor(port),
      owner: true,
      share: () => {
        if (shared && !closed) recordPort();
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await stop();
        await db.close();
        releaseLock();
        process.removeListener('exit', releaseLock);
      },
    };
  } catch (error) {
    releaseLock();
    process.removeListener('exit', releaseLock);
    throw error;
  }
}
