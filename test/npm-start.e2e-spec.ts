import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { childEnv, freePort, lastLine } from './support/process';
import { sleep } from './support/sleep';

/**
 * `npm start` and `npm run cli` as a process manager or a terminal runs them: a signal sent to the npm process (the
 * one a process manager knows) or to its whole process group (Ctrl+C) reaches the server, which drains and exits 0,
 * and nothing is left running.
 */

jest.setTimeout(90_000);

const ROOT = join(__dirname, '..');

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Npm {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exit: Promise<Exit>;
  /** The output is complete once both pipes are closed: after the exit, or never while an orphan holds them. */
  closed: Promise<void>;
}

const started: ChildProcess[] = [];

/** `npm args...` in a process group of its own (its pid is the group's id), so that a test can signal or end it all. */
function npm(args: string[], env: NodeJS.ProcessEnv): Npm {
  const child = spawn('npm', args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exit = new Promise<Exit>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const closed = new Promise<void>((done) => child.once('close', () => done()));
  return { child, output, exit, closed };
}

/** Resolves with the promise's value, or with `fallback` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<T>((done) => (timer = setTimeout(() => done(fallback), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether any process of the group `pgid` still exists. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether something accepts connections on the port (a refusal or a reset means no). */
function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(2_000, () => {
      socket.destroy();
      done(true);
    });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function waitHealthy(port: number, npmStart: Npm): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  void npmStart.exit.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(
    `npm start did not serve GET /health\n--- stdout ---\n${npmStart.output.stdout}\n--- stderr ---\n${npmStart.output.stderr}`,
  );
}

/** After the stop: how npm ended, and whether any of its processes or the port is still there a moment later. */
async function afterStop(port: number, npmStart: Npm, pgid: number) {
  const exit = await within(npmStart.exit, 30_000, null);
  await within(npmStart.closed, 5_000, undefined);
  const deadline = Date.now() + 5_000;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  return { exit, processesLeft: groupAlive(pgid), portOpen: await portOpen(port) };
}

afterAll(async () => {
  // Whatever a failed test left behind, the whole group of each npm.
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await sleep(100);
});

describe('npm start under a process manager', () => {
  it('SIGTERM to the npm process reaches the server: it drains, npm exits 0, the port closes and nothing is left', async () => {
    const port = await freePort();
    const npmStart = npm(['start'], childEnv({ PORT: String(port), LOG_LEVEL: 'warn' }));
    await waitHealthy(port, npmStart);

    process.kill(npmStart.child.pid!, 'SIGTERM');
    const after = await afterStop(port, npmStart, npmStart.child.pid!);
    expect(after).toEqual({ exit: { code: 0, signal: null }, processesLeft: false, portOpen: false });
    expect(npmStart.output.stderr.match(/SIGTERM: draining and stopping/g)).toHaveLength(1);
  });

  it('SIGINT to the whole process group (Ctrl+C) drains once and exits 0, though npm relays a second SIGINT', async () => {
    const port = await freePort();
    const npmStart = npm(['start'], childEnv({ PORT: String(port), LOG_LEVEL: 'warn' }));
    await waitHealthy(port, npmStart);

    process.kill(-npmStart.child.pid!, 'SIGINT');
    const after = await afterStop(port, npmStart, npmStart.child.pid!);
    expect(after).toEqual({ exit: { code: 0, signal: null }, processesLeft: false, portOpen: false });
    expect(npmStart.output.stderr.match(/SIGINT: draining and stopping/g)).toHaveLength(1);
  });

  it('npm run cli prints the result as its last line on stdout, and exits 0', async () => {
    const cli = npm(['run', '-s', 'cli', '--', 'account:create', '--name', 'Through npm'], childEnv());
    const exit = await within(cli.exit, 60_000, null);
    await within(cli.closed, 5_000, undefined);
    if (exit?.code !== 0) {
      throw new Error(
        `npm run cli: ${JSON.stringify(exit)}\n--- stdout ---\n${cli.output.stdout}\n--- stderr ---\n${cli.output.stderr}`,
      );
    }
    expect(JSON.parse(lastLine(cli.output.stdout))).toMatchObject({ name: 'Through npm' });
  });
});
