import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { send } from './http';

const ROOT = join(__dirname, '..');
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 40_000;

/** Every child still running, so that an error or Ctrl-C leaves none behind. */
const running = new Set<ChildProcess>();

export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in MB, from /proc; null where there is no /proc. */
function residentMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) / 1024;
  } catch {
    return null;
  }
}

/**
 * The Node.js options the container image runs the service with (its `ENV NODE_OPTIONS`: the heap's ceiling), so
 * that the service measured here is the one deployed; unset, V8 sizes the heap from this host's memory and lets the
 * old generation grow to four times what is live before collecting it.
 */
export function imageNodeOptions(): string {
  const match = /^\s*NODE_OPTIONS=(\S+)/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  if (match === null) throw new Error('The Dockerfile sets no NODE_OPTIONS for the service');
  return match[1];
}

/** Builds dist/ when the sources are newer, as `npm start` does. */
export async function buildService(): Promise<void> {
  const child = track(
    spawn(process.execPath, [join(ROOT, 'scripts', 'ensure-build.js')], { cwd: ROOT, stdio: 'inherit' }),
  );
  const code = await exited(child);
  if (code !== 0) throw new Error(`Building the service failed (exit ${String(code)})`);
}

export interface ServiceSettings {
  databaseUrl: string;
  port: number;
  apiKey: string;
  logFile: string;
  /** Where node --cpu-prof writes a profile of each start; null for none. */
  cpuProfileDir: string | null;
  /** The visitor limit per address and minute; 0 turns it off. */
  visitorRateLimitPerMinute: number;
  /** The Redis the limits are counted in (REDIS_URL), with the run's own key prefix; null: in memory. */
  redis: { url: string; keyPrefix: string } | null;
  /** Settings of every start of this service: a layout's session and replica URLs. */
  env?: Readonly<Record<string, string>>;
}

/** The service as production runs it: `node dist/main.js`, its own process, configured by its environment. */
export class Service {
  readonly origin: string;
  private child: ChildProcess | null = null;
  private sampler: NodeJS.Timeout | null = null;
  private peakMb = 0;

  constructor(private readonly settings: ServiceSettings) {
    this.origin = `http://127.0.0.1:${settings.port}`;
  }

  /** Starts it; `overrides` are settings of this start alone (a scenario's own, as the events one's streams). */
  async start(overrides: Readonly<Record<string, string>> = {}): Promise<void> {
    const log = createWriteStream(this.settings.logFile, { flags: 'a' });
    const child = track(
      spawn(process.execPath, [...this.profileArgs(), join(ROOT, 'dist', 'main.js')], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          NODE_ENV: 'production',
          NODE_OPTIONS: imageNodeOptions(),
          DATABASE_URL: this.settings.databaseUrl,
          PORT: String(this.settings.port),
          // Any free port: two instances, or two runs, on one machine must not ask for the same one.
          METRICS_PORT: '0',
          // The load generators send Host: 127.0.0.1:<port>, the system domain's name.
          APP_URL: this.origin,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '0',
          VISITOR_RATE_LIMIT_PER_MINUTE: String(this.settings.visitorRateLimitPerMinute),
          REDIS_URL: this.settings.redis?.url ?? '',
          REDIS_KEY_PREFIX: this.settings.redis?.keyPrefix ?? '',
          // The seeded account holds up to millions of links: a limit far above them keeps the check in every create.
          MAX_LINKS_PER_ACCOUNT: '1000000000',
          INITIAL_API_KEY: this.settings.apiKey,
          // The bench is the proxy in front: the targeted scenario says where its visitor is with X-Forwarded-For.
          TRUST_PROXY: 'loopback',
          // Streams only where a scenario turns them on, whatever the bench's own environment says.
          EVENTS_REDIS_URL: '',
          EVENTS_AMQP_URL: '',
          // Direct to DATABASE_URL alone unless a layout says otherwise, whatever the bench's own environment says.
          DATABASE_SESSION_URL: '',
          DATABASE_REPLICA_URL: '',
          ...this.settings.env,
          ...overrides,
        },
      }),
    );
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('exit', () => log.end());
    this.child = child;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`The service exited (${child.exitCode}) while starting${this.tail()}`);
      const ready = await send(this.origin, { path: '/health/ready' }).then(
        (answer) => answer.status === 200,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline)
        throw new Error(`The service was not ready in ${READY_TIMEOUT_MS} ms${this.tail()}`);
      await sleep(200);
    }
    this.peakMb = 0;
    this.sampleMemory();
    this.sampler = setInterval(() => this.sampleMemory(), 200);
  }

  private profileArgs(): string[] {
    const dir = this.settings.cpuProfileDir;
    return dir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Peak resident memory since start, in MB; null where it cannot be read. */
  get peakMemoryMb(): number | null {
    this.sampleMemory();
    return this.peakMb === 0 ? null : this.peakMb;
  }

  /** SIGTERM, as an orchestrator stops it: requests in flight and buffered clicks are drained. Its exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (child === null) return null;
    this.sampleMemory();
    if (this.sampler !== null) clearInterval(this.sampler);
    this.sampler = null;
    this.child = null;
    child.kill('SIGTERM');
    const code = await Promise.race([exited(child), sleep(STOP_TIMEOUT_MS).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      child.kill('SIGKILL');
      await exited(child);
      return null;
    }
    return code;
  }

  /** SIGKILL, as a crash: nothing is drained. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === null) return;
    if (this.sampler !== null) clearInterval(this.sampler);
    this.sampler = null;
    this.child = null;
    child.kill('SIGKILL');
    await exited(child);
  }

  private sampleMemory(): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    const mb = residentMb(pid);
    if (mb !== null) this.peakMb = Math.max(this.peakMb, mb);
  }

  private tail(): string {
    try {
      const lines = readFileSync(this.settings.logFile, 'utf8').trimEnd().split('\n').slice(-20);
      return `; the end of its log (${this.settings.logFile}):\n${lines.join('\n')}`;
    } catch {
      return '';
    }
  }
}

/** The bare node:http baseline, in a process of its own, answering the aliases it is given. */
export class Baseline {
  private child: ChildProcess | null = null;
  origin = '';

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(links: ReadonlyArray<readonly [string, string]>): Promise<void> {
    const child = track(fork(join(__dirname, 'baseline-server.js'), [], { stdio: 'inherit', execArgv: [] }));
    this.child = child;
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { port: number }) => resolve(message.port));
      child.once('exit', (code) => reject(new Error(`The baseline exited (${String(code)}) while starting`)));
      child.send({ links });
    });
    this.origin = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child === null) return;
    child.kill('SIGTERM');
    await exited(child);
  }
}
