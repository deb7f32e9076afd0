import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { testRedisUrl, uniqueKeyPrefix } from './redis';
import { sleep } from './sleep';

/**
 * Runs the built programs (`dist/cli.js`, `dist/main.js`) as child processes, as an operator would. The jest global
 * setup builds `dist/` first. Every child is tracked, so that {@link killAllChildren} in an `afterAll` ends the
 * ones a failing test left behind; every wait is bounded.
 */

const ROOT = join(__dirname, '..', '..');
export const CLI_SCRIPT = join(ROOT, 'dist', 'cli.js');
export const MAIN_SCRIPT = join(ROOT, 'dist', 'main.js');

/** Settings for a child: `undefined` removes a variable the parent has. */
export type EnvOverrides = Record<string, string | undefined>;

/** Variables that select or seed the run's database: dropped for a child that must use the embedded database. */
const DATABASE_VARIABLES = ['DATABASE_URL', 'TEST_DATABASE_SERVER_URL', 'INITIAL_API_KEY'];

/**
 * The environment of a child: the parent's (which carries the run's DATABASE_URL, INITIAL_API_KEY and LOG_LEVEL),
 * or with `embedded` the parent's without any database setting, then `overrides`. With REDIS_URL, the servers of
 * one environment share their limits under a key prefix of their own, as one deployment does.
 */
export function childEnv(
  overrides: EnvOverrides = {},
  options: { embedded?: boolean } = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.embedded === true) for (const name of DATABASE_VARIABLES) delete env[name];
  if (testRedisUrl() !== undefined) env.REDIS_KEY_PREFIX = uniqueKeyPrefix('servers');
  // Children share the run's database with every test: they run no imports unless their test says so.
  env.IMPORT_RUNNER = 'false';
  // No colours in captured output, so that messages can be matched as plain text.
  env.NO_COLOR = '1';
  delete env.FORCE_COLOR;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

const live = new Set<ChildProcess>();

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
  });
}

/** Resolves with the promise's value, or with `onTimeout()` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<T>((done) => {
        timer = setTimeout(() => done(onTimeout()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function spawnNode(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  // Output is complete once both pipes are closed, which happens after 'exit'.
  const closed = new Promise<void>((done) => child.once('close', () => done()));
  return { child, output, closed };
}

export interface RunResult {
  /** The exit code; null when a signal ended the process (or it was killed after the timeout). */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Wall time in milliseconds. */
  ms: number;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Killed with SIGKILL after this long. */
  timeoutMs?: number;
}

/** Runs `node script args...` to its end and captures its output. */
export async function runNode(script: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const { child, output, closed } = spawnNode(script, args, options.env ?? childEnv());
  let timedOut = false;
  const exit = await within<Exit>(exitOf(child), options.timeoutMs ?? 30_000, () => {
    timedOut = true;
    child.kill('SIGKILL');
    return { code: null, signal: 'SIGKILL' };
  });
  await within(closed, 5_000, () => undefined);
  return { ...exit, ...output, timedOut, ms: Date.now() - started };
}

/** Runs `node dist/cli.js args...`. */
export function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  return runNode(CLI_SCRIPT, args, options);
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

export interface StartOptions {
  /** The child's environment; PORT is set by {@link startServer}. */
  env: NodeJS.ProcessEnv;
  /** Bound on the wait for `GET /health`. */
  readyTimeoutMs?: number;
}

/** A running `dist/main.js`. */
export class ServerProcess {
  constructor(
    readonly child: ChildProcess,
    readonly port: number,
    private readonly output: { stdout: string; stderr: string },
    private readonly closed: Promise<void>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get stdout(): string {
    return this.output.stdout;
  }

  get stderr(): string {
    return this.output.stderr;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The captured output, for failure messages. */
  describe(): string {
    return `--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  /** Waits until `GET /health` answers 200; fails with the output when the process ends or the wait is over. */
  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) {
        await within(this.closed, 5_000, () => undefined);
        throw new Error(
          `Server exited (code ${this.child.exitCode}, signal ${this.child.signalCode}) before it was ready\n` +
            this.describe(),
        );
      }
      try {
        // Only once this process listens on its port: another test's server may have taken the port this one was
        // given (it was free a moment before), and would answer for it.
        if (listensOn(this.pid, this.port)) {
          const response = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(1_000) });
          if (response.status === 200) return;
        }
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        throw new Error(`Server did not answer GET /health within ${timeoutMs} ms\n${this.describe()}`);
      }
      await sleep(100);
    }
  }

  /** Waits for the process to end by itself; null when it is still running after `timeoutMs`. */
  async waitExit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
    const exit = await within<{ code: number | null; signal: NodeJS.Signals | null } | null>(
      exitOf(this.child),
      timeoutMs,
      () => null,
    );
    if (exit !== null) await within(this.closed, 5_000, () => undefined);
    return exit;
  }

  /**
   * SIGTERM, then waits for the exit. Returns the exit code (null when a signal ended it); a process still running
   * after `timeoutMs` is killed and the call fails.
   */
  async stop(timeoutMs = 20_000): Promise<number | null> {
    if (this.running) this.child.kill('SIGTERM');
    const exit = await this.waitExit(timeoutMs);
    if (exit === null) {
      await this.kill();
      throw new Error(`Server did not exit within ${timeoutMs} ms of SIGTERM\n${this.describe()}`);
    }
    return exit.code;
  }

  /** SIGKILL (kill -9), then waits until the process is gone (and reaped, so that its pid no longer answers). */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.waitExit(10_000);
  }
}

/**
 * Whether process `pid` holds a TCP socket listening on `port`: one of its file descriptors is a socket whose inode
 * `/proc/net/tcp` (or `tcp6`) lists in the LISTEN state (0A) on that port. Where `/proc` cannot be read (not Linux),
 * true: the caller then trusts whoever answers on the port, as before.
 */
export function listensOn(pid: number, port: number): boolean {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((inode): inode is string => inode !== undefined),
    );
  } catch {
    return !existsSync('/proc/self/fd');
  }
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [, local, , state] = fields;
      if (state === '0A' && local.endsWith(`:${hex}`) && inodes.has(fields[9])) return true;
    }
  }
  return false;
}

/** Starts `node dist/main.js` on a free port and waits until it serves `GET /health`. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const server = spawnServer({ ...options.env, PORT: String(await freePort()) });
  try {
    await server.waitReady(options.readyTimeoutMs ?? 45_000);
  } catch (error) {
    await server.kill();
    throw error;
  }
  return server;
}

/** Starts `node dist/main.js` with exactly this environment, without waiting for anything. */
export function spawnServer(env: NodeJS.ProcessEnv): ServerProcess {
  const port = Number(env.PORT);
  const { child, output, closed } = spawnNode(MAIN_SCRIPT, [], env);
  return new ServerProcess(child, Number.isInteger(port) ? port : 0, output, closed);
}

/** Ends every child still running (SIGKILL) and waits until they are gone. For `afterAll`/`afterEach`. */
export async function killAllChildren(): Promise<void> {
  const children = [...live];
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map((child) => within(exitOf(child), 10_000, () => undefined)));
}

// A worker that dies with children still running must not leave them behind.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A fresh empty directory under the system's temporary directory. */
export function tempDir(prefix = 'shortlink-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(path: string | undefined): void {
  if (path !== undefined) rmSync(path, { recursive: true, force: true });
}

/** The body of `GET /api/v1/account`: the account, or an error envelope. */
export interface AccountBody {
  data?: { id: number; name: string; created_at: string };
  message?: unknown;
  status: number;
}

/** `GET /api/v1/account` on a running server with a key. */
export async function getAccount(
  baseUrl: string,
  apiKey: string,
): Promise<{ status: number; body: AccountBody }> {
  const response = await fetch(`${baseUrl}/api/v1/account`, {
    headers: { Authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as AccountBody };
}

/** The result line of the CLI: its last non-empty line on stdout. */
export function lastLine(stdout: string): string {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  return lines[lines.length - 1] ?? '';
}

/** Every API key of the generated form (`lsk_` + 43 base64url characters) in a text. */
export function generatedKeys(text: string): string[] {
  return text.match(/lsk_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g) ?? [];
}

/** An account made with the CLI, as an operator makes one: its id and the key it printed once. */
export async function cliAccount(
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<{ id: number; apiKey: string }> {
  const created = await runCli(['account:create', '--name', name], { env });
  expect(created.code).toBe(0);
  const { id, api_key: apiKey } = JSON.parse(lastLine(created.stdout)) as { id: number; api_key: string };
  return { id, apiKey };
}

/** A link's counter and its click rows, read straight from the database. */
export async function recordedClicks(linkId: number): Promise<{ counter: number; rows: number }> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ counter: number; rows: number }>(
      `SELECT (SELECT clicks FROM link_counters WHERE link_id = $1)::int AS counter,
              (SELECT count(*) FROM clicks WHERE link_id = $1)::int AS rows`,
      [linkId],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}
