/**
 * The failover test: two instances of the service on the highly available cluster of test/ha/cluster.sh, under a
 * steady load of visits and link creates, through a Patroni switchover, the kill -9 of the PostgreSQL leader's node
 * and the kill -9 of the Redis master. Afterwards it checks what an operator is promised: no visit answered 5xx, no
 * 500 anywhere, every acknowledged create still there, every counted visit counted once, every link.created event
 * delivered once, and each 503 carrying Retry-After.
 *
 * Run by .ci/ha once the cluster is up (`npx tsx test/ha/failover.ts`, HA_DIR naming the cluster's work directory);
 * it needs dist/main.js. The report goes to HA_DIR/report.json and to stdout; the exit code is 1 when a check that
 * must hold does not.
 *
 * Settings (environment): HA_DIR (required); HA_PGBOUNCER=0 to send the second instance straight to HAProxy too
 * (by default it goes through PgBouncer); HA_REDIRECT_RATE and HA_WRITE_RATE, requests a second (200 and 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../support/process';
import { sleep } from '../support/sleep';

const ROOT = join(__dirname, '..', '..');
const CLUSTER = join(__dirname, 'cluster.sh');
const MAIN = join(ROOT, 'dist', 'main.js');

const WRITE_URL = 'postgres://postgres@127.0.0.1:25000';
const READ_URL = 'postgres://postgres@127.0.0.1:25001';
const PGBOUNCER_URL = 'postgres://postgres@127.0.0.1:26432';
const SENTINELS = '127.0.0.1:26381,127.0.0.1:26382,127.0.0.1:26383';
const DATABASE = 'shortlink';

const REQUEST_TIMEOUT_MS = 5_000;
const SETUP_LINKS = 50;
const REDIRECT_RATE = Number(process.env.HA_REDIRECT_RATE ?? 200);
const WRITE_RATE = Number(process.env.HA_WRITE_RATE ?? 10);
const VIA_PGBOUNCER = process.env.HA_PGBOUNCER !== '0';
const USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15';

const HA_DIR = process.env.HA_DIR ?? '';
if (HA_DIR === '' || !existsSync(HA_DIR)) {
  console.error('HA_DIR must name the work directory of a running test/ha/cluster.sh');
  process.exit(2);
}
if (!existsSync(MAIN)) {
  console.error(`${MAIN} is missing: build the service first (node scripts/build.js)`);
  process.exit(2);
}

const started = Date.now();
const elapsed = (at = Date.now()) => Math.round((at - started) / 100) / 10;
function say(message: string): void {
  console.log(`[failover ${elapsed().toFixed(1).padStart(5)} s] ${message}`);
}

/** When a process started, in clock ticks since boot: field 22 of /proc/PID/stat, as cluster.sh reads it. */
function startTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request, answered or failed within REQUEST_TIMEOUT_MS; a timeout or a refused connection is an error. */
function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, agent, headers, timeout: REQUEST_TIMEOUT_MS },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    // The socket's idle timeout alone would let a trickling answer run on: the whole exchange is bounded.
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The service's instances

class Instance {
  // Enough sockets for every request in flight: a request queued in the agent would spend its timeout waiting for
  // a socket, and be counted as the service's failure.
  readonly agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  child: ChildProcess | undefined;
  readonly logFile: string;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly metricsPort: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.logFile = join(HA_DIR, `${name}.log`);
  }

  start(): void {
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { ...this.env, PORT: String(this.port), METRICS_PORT: String(this.metricsPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    this.child = child;
    // Beside the cluster's own pids, in their form (pid and start time), so that `cluster.sh down` ends the
    // instance too if this driver dies first; removed once it has exited, as its pid may then go to another process.
    const pidFile = join(HA_DIR, 'pids', `${this.name}.pid`);
    if (child.pid !== undefined) writeFileSync(pidFile, `${child.pid} ${startTime(child.pid)}\n`);
    child.once('exit', () => rmSync(pidFile, { force: true }));
  }

  /** kill -9, for a driver that is itself being stopped. */
  kill(): void {
    if (this.running) this.child?.kill('SIGKILL');
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited before it was ready\n${this.tail()}`);
      try {
        if ((await send(this.agent, this.port, 'GET', '/health/ready', {})).status === 200) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${this.name} did not answer GET /health/ready within ${timeoutMs} ms\n${this.tail()}`,
        );
      }
      await sleep(250);
    }
  }

  /** SIGTERM, as an orchestrator stops it: it writes the clicks it holds; SIGKILL when it takes over 30 s. */
  async stop(): Promise<number | null> {
    this.agent.destroy();
    const child = this.child;
    if (child === undefined || !this.running) return child?.exitCode ?? null;
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exit;
    clearTimeout(timer);
    return code;
  }

  tail(lines = 40): string {
    try {
      const text = readFileSync(this.logFile, 'utf8').trimEnd().split('\n');
      return `--- last ${lines} lines of ${this.logFile} ---\n${text.slice(-lines).join('\n')}`;
    } catch {
      return `(no output in ${this.logFile})`;
    }
  }

  /**
   * Where the instance counts its limits now, from its metrics: 'redis' when they are shared through Redis,
   * 'memory' when it fell back to its own, undefined when the metrics do not answer.
   */
  async limitsStore(): Promise<string | undefined> {
    try {
      const answer = await send(this.agent, this.metricsPort, 'GET', '/metrics', {});
      const store = /^shortlink_limits_store\{store="(\w+)"\} 1$/m.exec(answer.body);
      return store?.[1];
    } catch {
      return undefined;
    }
  }

  /**
   * The instance's warnings and errors, counted by where they came from and what they say, with what differs from
   * one line to the next (numbers, statements' hashes) elided; SQLSTATE codes are kept.
   */
  problems(): Record<string, number> {
    const counts: Record<string, number> = {};
    let text: string;
    try {
      text = readFileSync(this.logFile, 'utf8');
    } catch {
      return counts;
    }
    for (const line of text.split('\n')) {
      let entry: { level?: string; context?: string; msg?: string; res?: { statusCode?: number } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if (entry.level !== 'warn' && entry.level !== 'error' && entry.level !== 'fatal') continue;
      const what =
        entry.res?.statusCode !== undefined
          ? `request answered ${entry.res.statusCode}`
          : `${entry.context ?? '-'}: ${(entry.msg ?? '')
              .replace(/#[0-9a-f]{6,}/g, '#…')
              .replace(/\b\d{3,}\b/g, 'N')
              .slice(0, 120)}`;
      const key = `${entry.level} ${what}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  /** Log lines at error or above (pino levels 50 and 60), or lines that are not JSON (start-up errors). */
  errorLines(limit = 20): string[] {
    let text: string;
    try {
      text = readFileSync(this.logFile, 'utf8');
    } catch {
      return [];
    }
    const lines: string[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as { level?: string | number };
        if (entry.level === 'error' || entry.level === 'fatal' || Number(entry.level) >= 50) lines.push(line);
      } catch {
        lines.push(line);
      }
    }
    return lines.slice(-limit);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The webhook receiver

interface Delivery {
  webhookId: string;
  eventId: string;
  type: string;
  linkId: number | undefined;
  signed: boolean;
  at: number;
}

class Receiver {
  readonly deliveries: Delivery[] = [];
  secret = '';
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let signed = false;
      try {
        new Webhook(this.secret).verify(body, {
          'webhook-id': String(request.headers['webhook-id']),
          'webhook-timestamp': String(request.headers['webhook-timestamp']),
          'webhook-signature': String(request.headers['webhook-signature']),
        });
        signed = true;
      } catch {
        // Left unsigned: the checks count it.
      }
      let event: { id?: string; type?: string; data?: { id?: number } } = {};
      try {
        event = JSON.parse(body) as typeof event;
      } catch {
        // Recorded with what the headers say; the checks count it as unsigned or unknown.
      }
      this.deliveries.push({
        webhookId: String(request.headers['webhook-id']),
        eventId: String(event.id),
        type: String(event.type),
        linkId: event.data?.id,
        signed,
        at: Date.now(),
      });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The record of the load

type Kind = 'redirect' | 'write';

interface Outcome {
  kind: Kind;
  instance: string;
  at: number;
  ms: number;
  /** The HTTP status; 0 when there was none (timeout, refused, reset). */
  status: number;
  error?: string;
  retryAfter?: boolean;
  /** The id of the link an acknowledged create made. */
  id?: number;
}

interface Phase {
  name: string;
  start: number;
  end: number;
  ok: boolean;
  output: string;
}

const outcomes: Outcome[] = [];
const phases: Phase[] = [];
/** The cluster.sh command under way, to be stopped with the driver: left running, it could restart a node after
 * `down` has stopped everything. */
let clusterStep: ChildProcess | undefined;

function runCluster(command: string): Promise<Phase> {
  return new Promise((done) => {
    const start = Date.now();
    say(`cluster.sh ${command}`);
    const child = spawn('bash', [CLUSTER, command], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    clusterStep = child;
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('close', (code) => {
      clusterStep = undefined;
      const phase = { name: command, start, end: Date.now(), ok: code === 0, output };
      phases.push(phase);
      for (const line of output.trimEnd().split('\n')) if (line !== '') say(`  ${line}`);
      say(
        `cluster.sh ${command}: ${phase.ok ? 'done' : `FAILED (exit ${code})`} in ${(phase.end - start) / 1000} s`,
      );
      done(phase);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The run

interface Link {
  id: number;
  alias: string;
}

async function createDatabase(): Promise<void> {
  const client = new Client({ connectionString: `${WRITE_URL}/postgres`, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  say(`work directory ${HA_DIR}; the second instance goes ${VIA_PGBOUNCER ? 'through PgBouncer' : 'direct'}`);
  await createDatabase();

  const apiKey = `ha_${randomBytes(30).toString('base64url')}`;
  const [portA, portB, metricsA, metricsB] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NO_COLOR: '1',
    APP_URL: `http://127.0.0.1:${portA}`,
    INITIAL_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
    // One key and one address send everything. The limits stay on, high enough never to refuse the load, so that
    // every request counts in Redis and the Redis failover is felt.
    RATE_LIMIT_PER_MINUTE: '1000000',
    VISITOR_RATE_LIMIT_PER_MINUTE: '1000000000',
    // The receiver listens on a loopback address.
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    // Nothing may leave the machine: no target checks, no title fetches.
    LINK_CHECKS: 'false',
    TITLE_FETCH_CONCURRENCY: '0',
    IMPORT_RUNNER: 'false',
    DATABASE_REPLICA_URL: `${READ_URL}/${DATABASE}`,
    REPLICA_MAX_LAG_MS: '1000',
    // The URL's host names the Sentinels' master group once REDIS_SENTINELS is set.
    REDIS_URL: 'redis://mymaster',
    REDIS_SENTINELS: SENTINELS,
    REDIS_KEY_PREFIX: `ha-${randomBytes(4).toString('hex')}:`,
  };
  // LISTEN and the migrations need a session of their own, which a pooler in transaction mode does not give.
  const direct = {
    DATABASE_URL: `${WRITE_URL}/${DATABASE}`,
    DATABASE_SESSION_URL: `${WRITE_URL}/${DATABASE}`,
  };
  const pooled = VIA_PGBOUNCER ? { ...direct, DATABASE_URL: `${PGBOUNCER_URL}/${DATABASE}` } : direct;
  const instances = [
    new Instance('instance-a', portA, metricsA, { ...common, ...direct }),
    new Instance('instance-b', portB, metricsB, { ...common, ...pooled }),
  ];
  const [a, b] = instances;
  const receiver = new Receiver();
  await receiver.start();
  // Stopped from outside (a CI timeout, Ctrl-C): the instances go with the driver rather than outlive it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal}: stopping the instances`);
      clusterStep?.kill('SIGKILL');
      for (const instance of instances) instance.kill();
      process.exit(130);
    });
  }

  const report: Record<string, unknown> = {};
  try {
    // One after the other: the first start makes the account, and the second finds it made.
    a.start();
    await a.waitReady(60_000);
    b.start();
    await b.waitReady(60_000);
    say(`instances ready on ${portA} (direct) and ${portB} (${VIA_PGBOUNCER ? 'PgBouncer' : 'direct'})`);
    return await scenario(instances, apiKey, String(common.REDIS_KEY_PREFIX), receiver, report);
  } catch (error) {
    say(`the run failed: ${error instanceof Error ? error.message : String(error)}`);
    for (const instance of instances) console.log(instance.tail());
    return 1;
  } finally {
    const codes = await Promise.all(instances.map((instance) => instance.stop()));
    say(`instances stopped (exit codes ${codes.join(', ')})`);
    await receiver.close();
  }
}

async function scenario(
  instances: Instance[],
  apiKey: string,
  keyPrefix: string,
  receiver: Receiver,
  report: Record<string, unknown>,
): Promise<number> {
  const [a] = instances;
  const auth = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' };
  const api = async (instance: Instance, method: string, path: string, body?: unknown) => {
    const answer = await send(
      instance.agent,
      instance.port,
      method,
      path,
      body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' },
      body === undefined ? undefined : JSON.stringify(body),
    );
    let parsed: { data?: Record<string, unknown>; message?: string } = {};
    try {
      parsed = JSON.parse(answer.body) as typeof parsed;
    } catch {
      // Not JSON: the status says enough.
    }
    return { ...answer, json: parsed };
  };

  // Setup: the webhook first, so that every link's link.created reaches it.
  const hook = await api(a, 'POST', '/api/v1/webhooks', {
    name: 'failover receiver',
    url: receiver.url,
    events: ['link.created'],
  });
  if (hook.status !== 201) throw new Error(`webhook create answered ${hook.status}: ${hook.body}`);
  receiver.secret = String(hook.json.data?.secret);

  const acknowledged = new Map<number, { at: number; instance: string }>();
  const links: Link[] = [];
  for (let n = 0; n < SETUP_LINKS; n++) {
    const created = await api(instances[n % 2], 'POST', '/api/v1/links', {
      url: `https://example.com/ha/setup/${n}`,
    });
    if (created.status !== 201) throw new Error(`link create answered ${created.status}: ${created.body}`);
    const link = { id: Number(created.json.data?.id), alias: String(created.json.data?.alias) };
    links.push(link);
    acknowledged.set(link.id, { at: Date.now(), instance: instances[n % 2].name });
  }
  say(`setup: a webhook and ${links.length} links`);

  // Load: ticks every 50 ms, each sending its share of visits and creates, alternating instances. Requests in
  // flight are bounded, above what the request timeout lets pile up at the full rate, so that only a driver that
  // cannot keep up skips any (counted in the report).
  const inFlight = new Set<Promise<void>>();
  const MAX_IN_FLIGHT = Math.ceil(((REDIRECT_RATE + WRITE_RATE) * REQUEST_TIMEOUT_MS) / 1000) + 100;
  let skipped = 0;
  let redirectTurn = 0;
  let writeTurn = 0;
  let writeSeq = 0;
  const TICK_MS = 50;
  let redirectCredit = 0;
  let writeCredit = 0;
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  /** Sends one request and records its outcome: its answer's status, or 0 and why when none came. */
  const timed =
    <A extends Answer>(
      kind: Kind,
      instance: Instance,
      request: () => Promise<A>,
      acknowledge?: (answer: A, at: number) => number | undefined,
    ) =>
    async () => {
      const at = Date.now();
      const outcome: Outcome = { kind, instance: instance.name, at, ms: 0, status: 0 };
      try {
        const answer = await request();
        outcome.status = answer.status;
        outcome.retryAfter = answer.headers['retry-after'] !== undefined;
        outcome.id = acknowledge?.(answer, at);
        if (answer.status >= 500 && kind === 'write') outcome.error = answer.body.slice(0, 200);
      } catch (error) {
        outcome.error = message(error);
      }
      outcome.ms = Date.now() - at;
      outcomes.push(outcome);
    };
  const visit = (instance: Instance, link: Link) =>
    timed('redirect', instance, () =>
      send(instance.agent, instance.port, 'GET', `/${link.alias}`, { 'User-Agent': USER_AGENT }),
    );
  const create = (instance: Instance, n: number) =>
    timed(
      'write',
      instance,
      () => api(instance, 'POST', '/api/v1/links', { url: `https://example.com/ha/load/${n}` }),
      (answer, at) => {
        if (answer.status < 200 || answer.status >= 300) return undefined;
        const id = Number(answer.json.data?.id);
        acknowledged.set(id, { at, instance: instance.name });
        return id;
      },
    );
  const ticker = setInterval(() => {
    redirectCredit += (REDIRECT_RATE * TICK_MS) / 1000;
    writeCredit += (WRITE_RATE * TICK_MS) / 1000;
    const due: (() => Promise<void>)[] = [];
    for (; redirectCredit >= 1; redirectCredit--) {
      const turn = redirectTurn++;
      due.push(visit(instances[turn % 2], links[Math.floor(turn / 2) % links.length]));
    }
    for (; writeCredit >= 1; writeCredit--) due.push(create(instances[writeTurn++ % 2], writeSeq++));
    for (const work of due) {
      if (inFlight.size >= MAX_IN_FLIGHT) skipped++;
      else track(work());
    }
  }, TICK_MS);

  // The timeline of faults. Each wait counts from the start of the fault before it, and lasts at least 5 s past
  // its end, so that the load also runs on a settled cluster between faults.
  const settle = async (from: Phase, ms: number) => {
    await sleep(Math.max(from.start + ms - Date.now(), from.end + 5_000 - Date.now(), 0));
  };
  const loadStart = Date.now();
  say(`load: ${REDIRECT_RATE} visits and ${WRITE_RATE} creates a second`);
  await sleep(10_000);
  const limitsBefore = await Promise.all(instances.map((instance) => instance.limitsStore()));
  const switchover = await runCluster('switchover');
  await settle(switchover, 15_000);
  const killLeader = await runCluster('kill-leader');
  await settle(killLeader, 20_000);
  const redisFailover = await runCluster('redis-failover');
  await settle(redisFailover, 10_000);
  const limitsAfter = await Promise.all(instances.map((instance) => instance.limitsStore()));
  clearInterval(ticker);
  const loadEnd = Date.now();
  const redisKeys = await countRedisKeys(keyPrefix);
  const replicaSessions = await countReplicaSessions();
  say(`load stopped; waiting for ${inFlight.size} requests in flight`);
  await Promise.all([...inFlight]);

  // Drain: clicks are written in batches, so the counts are read until they reach the visits redirected, or stop
  // moving. A read through either instance makes it write what it holds.
  const redirected = outcomes.filter(
    (o) => o.kind === 'redirect' && o.status >= 300 && o.status < 400,
  ).length;
  const countClicks = async (): Promise<number | undefined> => {
    let total = 0;
    for (const [index, link] of links.entries()) {
      const answer = await api(instances[index % 2], 'GET', `/api/v1/links/${link.id}`).catch(
        () => undefined,
      );
      if (answer?.status !== 200) return undefined;
      total += Number(answer.json.data?.clicks);
    }
    return total;
  };
  let clicks: number | undefined;
  let unchanged = 0;
  const drainDeadline = Date.now() + 30_000;
  while (Date.now() < drainDeadline) {
    const counted = await countClicks();
    unchanged = counted !== undefined && counted === clicks ? unchanged + 1 : 0;
    clicks = counted ?? clicks;
    if (clicks === redirected || unchanged >= 3) break;
    await sleep(1_000);
  }
  say(`clicks counted ${clicks ?? 'unknown'}, visits redirected ${redirected}`);

  // Every acknowledged create must still be there, read through the leader.
  const missing: number[] = [];
  const unreadable: number[] = [];
  const ids = [...acknowledged.keys()];
  for (let index = 0; index < ids.length; index += 8) {
    await Promise.all(
      ids.slice(index, index + 8).map(async (id) => {
        for (let attempt = 0; attempt < 3; attempt++) {
          const answer = await api(a, 'GET', `/api/v1/links/${id}`).catch(() => undefined);
          if (answer?.status === 200) return;
          if (answer?.status === 404) return void missing.push(id);
          await sleep(500);
        }
        unreadable.push(id);
      }),
    );
  }
  say(`acknowledged creates: ${ids.length}, missing ${missing.length}, unreadable ${unreadable.length}`);

  // Webhooks: every acknowledged create's link.created, once.
  const webhookDeadline = Date.now() + 30_000;
  const delivered = () => new Set(receiver.deliveries.map((d) => d.linkId));
  while (Date.now() < webhookDeadline && ids.some((id) => !delivered().has(id))) await sleep(500);
  const byEvent = new Map<string, number>();
  const byLink = new Map<number, number>();
  const idsByLink = new Map<number, Set<string>>();
  for (const delivery of receiver.deliveries) {
    byEvent.set(delivery.webhookId, (byEvent.get(delivery.webhookId) ?? 0) + 1);
    if (delivery.linkId === undefined) continue;
    byLink.set(delivery.linkId, (byLink.get(delivery.linkId) ?? 0) + 1);
    idsByLink.set(delivery.linkId, (idsByLink.get(delivery.linkId) ?? new Set()).add(delivery.webhookId));
  }
  // A delivery repeated with the same webhook-id is one event, which a receiver processes once (Standard Webhooks:
  // the id is the idempotency key): a delivery whose success could not be recorded while the database was away is
  // sent again. Two ids for one link would be the event itself made twice: that must never happen.
  const duplicateDeliveries = [...byEvent.values()].filter((count) => count > 1).length;
  const linksWithSeveralEvents = [...idsByLink.entries()].filter(([, ids]) => ids.size > 1).map(([id]) => id);
  const eventsMissing = ids.filter((id) => !byLink.has(id));
  // When each delivery of a link delivered more than once arrived, against the faults' times: a repeat after a
  // failover is a delivery whose success could not be recorded while the database was away.
  const repeated = [...byLink.entries()]
    .filter(([, count]) => count > 1)
    .slice(0, 20)
    .map(([id]) => {
      const made = acknowledged.get(id);
      return {
        link: id,
        created_at_s: made === undefined ? null : elapsed(made.at),
        deliveries: receiver.deliveries
          .filter((d) => d.linkId === id)
          .map((d) => ({ webhook_id: d.webhookId, at_s: elapsed(d.at) })),
      };
    });
  const eventsOfUnacknowledged = [...byLink.keys()].filter((id) => !acknowledged.has(id));
  const unsigned = receiver.deliveries.filter((d) => !d.signed || d.type !== 'link.created').length;

  // The answers.
  const redirects = outcomes.filter((o) => o.kind === 'redirect');
  const writes = outcomes.filter((o) => o.kind === 'write');
  const redirect5xx = redirects.filter((o) => o.status >= 500);
  const redirectOther = redirects.filter((o) => o.status < 300 || (o.status >= 400 && o.status < 500));
  const writes503 = writes.filter((o) => o.status === 503);
  const writes500 = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
  const writeErrors = writes.filter((o) => o.status === 0);
  const writesOther = writes.filter(
    (o) => o.status !== 0 && o.status !== 503 && (o.status < 200 || o.status >= 300),
  );
  const refusedWindows = [switchover, killLeader, redisFailover].map((phase, index, all) => {
    const until = index + 1 < all.length ? all[index + 1].start : loadEnd;
    const refused = writes.filter((o) => o.at >= phase.start && o.at < until && o.status !== 201);
    const first = refused.length > 0 ? Math.min(...refused.map((o) => o.at)) : undefined;
    const last = refused.length > 0 ? Math.max(...refused.map((o) => o.at + o.ms)) : undefined;
    return {
      fault: phase.name,
      fault_at_s: elapsed(phase.start),
      fault_took_s: (phase.end - phase.start) / 1000,
      fault_ok: phase.ok,
      writes_refused: refused.length,
      writes_503: refused.filter((o) => o.status === 503).length,
      writes_refused_s: first === undefined || last === undefined ? 0 : (last - first) / 1000,
      redirects_5xx: redirects.filter((o) => o.at >= phase.start && o.at < until && o.status >= 500).length,
      redirects_failed: redirects.filter((o) => o.at >= phase.start && o.at < until && o.status === 0).length,
    };
  });
  const byStatus = (list: Outcome[]) => {
    const counts: Record<string, number> = {};
    for (const o of list) {
      const key = o.status === 0 ? `error: ${(o.error ?? '').replace(/:.*/, '')}` : String(o.status);
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };

  const checks = [
    check('cluster faults ran', phases.filter((p) => !p.ok).length, 0, 'failed cluster.sh steps'),
    check('redirects answered 5xx', redirect5xx.length, 0, byStatusText(byStatus(redirect5xx))),
    check('500s (any request)', writes500.length, 0, byStatusText(byStatus(writes500))),
    check(
      'acknowledged writes missing afterwards',
      missing.length + unreadable.length,
      0,
      `missing ${missing.length} (${missing.slice(0, 10).join(' ')}), unreadable ${unreadable.length}`,
    ),
    check(
      '503s without Retry-After',
      outcomes.filter((o) => o.status === 503 && o.retryAfter !== true).length,
      0,
      `${outcomes.filter((o) => o.status === 503).length} 503s in all`,
    ),
    check(
      'clicks counted minus visits redirected',
      (clicks ?? -1) - redirected,
      0,
      `${clicks ?? 'unknown'} counted, ${redirected} redirected`,
    ),
    check('link.created events missing', eventsMissing.length, 0, eventsMissing.slice(0, 10).join(' ')),
    check(
      'link.created events made more than once (distinct webhook-ids for one link)',
      linksWithSeveralEvents.length,
      0,
      `${duplicateDeliveries} deliveries repeated with their webhook-id (processed once by id)`,
    ),
    check('webhook deliveries unsigned or of another type', unsigned, 0, ''),
    // Without this the Redis failover proves nothing: an instance that never reached Redis counts in memory and
    // feels no failover at all.
    check(
      'instances not counting limits in Redis after its failover',
      limitsAfter.filter((store) => store !== 'redis').length,
      0,
      `limits store before the faults: ${limitsBefore.join(', ')}; after: ${limitsAfter.join(', ')}; ` +
        `keys of the run in the Redis master: ${redisKeys ?? 'unknown'}`,
    ),
    check('instances still running after the load', instances.filter((i) => !i.running).length, 0, ''),
  ];
  const failed = checks.filter((c) => !c.pass);

  Object.assign(report, {
    started_at: new Date(started).toISOString(),
    load_s: (loadEnd - loadStart) / 1000,
    second_instance: VIA_PGBOUNCER ? 'PgBouncer (transaction mode)' : 'direct',
    rates: {
      redirects_per_s: REDIRECT_RATE,
      writes_per_s: WRITE_RATE,
      skipped_over_in_flight_bound: skipped,
    },
    redirects: {
      answered: redirects.filter((o) => o.status !== 0).length,
      redirected,
      '5xx': redirect5xx.length,
      failing_otherwise: redirectOther.length + redirects.filter((o) => o.status === 0).length,
      by_status: byStatus(redirects),
      slowest_ms: Math.max(0, ...redirects.map((o) => o.ms)),
    },
    writes: {
      sent: writes.length,
      acknowledged: writes.filter((o) => o.status >= 200 && o.status < 300).length,
      acknowledged_with_setup: ids.length,
      missing_afterwards: missing,
      unreadable_afterwards: unreadable,
      refused_503: writes503.length,
      refused_503_with_retry_after: writes503.filter((o) => o.retryAfter === true).length,
      errors: writeErrors.length,
      other_statuses: writesOther.length,
      by_status: byStatus(writes),
      slowest_ms: Math.max(0, ...writes.map((o) => o.ms)),
    },
    faults: refusedWindows,
    clicks: { counted: clicks ?? null, redirected },
    redis: { limits_store_before: limitsBefore, limits_store_after: limitsAfter, keys_of_the_run: redisKeys },
    // Sessions on the database shortlink of a replica when the load stopped: how much the instances read there.
    replica_sessions: replicaSessions,
    problems_logged: Object.fromEntries(instances.map((instance) => [instance.name, instance.problems()])),
    webhooks: {
      deliveries: receiver.deliveries.length,
      distinct_events: byEvent.size,
      events_missing: eventsMissing.length,
      duplicate_event_ids: duplicateDeliveries,
      links_with_several_events: linksWithSeveralEvents.length,
      repeated,
      events_of_creates_not_acknowledged: eventsOfUnacknowledged.length,
      unsigned_or_other_type: unsigned,
    },
    by_instance: Object.fromEntries(
      instances.map((instance) => [
        instance.name,
        {
          redirects: byStatus(redirects.filter((o) => o.instance === instance.name)),
          writes: byStatus(writes.filter((o) => o.instance === instance.name)),
        },
      ]),
    ),
    checks,
    cluster_ok: phases.every((p) => p.ok),
    passed: failed.length === 0,
  });
  const json = JSON.stringify(report, null, 2);
  writeFileSync(join(HA_DIR, 'report.json'), `${json}\n`);
  console.log(json);
  printTable(report, checks, refusedWindows);

  if (failed.length > 0) {
    for (const instance of instances) {
      const errors = instance.errorLines();
      console.log(`--- ${instance.name}: its last ${errors.length} error lines (${instance.logFile}) ---`);
      for (const line of errors) console.log(line);
    }
    for (const phase of phases.filter((p) => !p.ok))
      console.log(`--- cluster.sh ${phase.name} ---\n${phase.output}`);
  }
  return failed.length === 0 ? 0 : 1;
}

/** Keys under the run's prefix in the Redis master the Sentinels name; undefined when Redis does not answer. */
async function countRedisKeys(prefix: string): Promise<number | undefined> {
  const redis = new Redis({
    sentinels: SENTINELS.split(',').map((address) => {
      const [host, port] = address.split(':');
      return { host, port: Number(port) };
    }),
    name: 'mymaster',
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
  });
  try {
    await redis.connect();
    let count = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      count += keys.length;
    } while (cursor !== '0');
    return count;
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

async function countReplicaSessions(): Promise<number | undefined> {
  const client = new Client({ connectionString: `${READ_URL}/postgres`, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const sessions = await client.query<{ count: string }>(
      'SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [DATABASE],
    );
    return Number(sessions.rows[0].count);
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface Check {
  name: string;
  value: number;
  expected: number;
  pass: boolean;
  detail: string;
}

function check(name: string, value: number, expected: number, detail: string): Check {
  return { name, value, expected, pass: value === expected, detail };
}

function byStatusText(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  return code === undefined ? text : `${code}: ${text}`;
}

function printTable(
  report: Record<string, unknown>,
  checks: Check[],
  faults: Record<string, unknown>[],
): void {
  const rows = (title: string, lines: [string, string][]) => {
    const width = Math.max(...lines.map(([label]) => label.length));
    console.log(`\n${title}`);
    for (const [label, value] of lines) console.log(`  ${label.padEnd(width)}  ${value}`);
  };
  const redirects = report.redirects as Record<string, unknown>;
  const writes = report.writes as Record<string, unknown>;
  rows('answers', [
    ['redirects answered', String(redirects.answered)],
    ['redirects by status', byStatusText(redirects.by_status as Record<string, number>)],
    ['redirects failing otherwise', String(redirects.failing_otherwise)],
    ['slowest redirect, write', `${String(redirects.slowest_ms)} ms, ${String(writes.slowest_ms)} ms`],
    [
      'requests skipped (in flight)',
      String((report.rates as Record<string, unknown>).skipped_over_in_flight_bound),
    ],
    ['writes sent', String(writes.sent)],
    ['writes acknowledged', String(writes.acknowledged)],
    ['writes by status', byStatusText(writes.by_status as Record<string, number>)],
    [
      '503s with Retry-After',
      `${String(writes.refused_503_with_retry_after)} of ${String(writes.refused_503)}`,
    ],
  ]);
  rows(
    'faults (writes refused: from the first refusal to the last answer of one, until the next fault)',
    faults.map((fault) => [
      String(fault.fault),
      `at ${String(fault.fault_at_s)} s, took ${String(fault.fault_took_s)} s; writes refused ` +
        `${String(fault.writes_refused)} (503: ${String(fault.writes_503)}) over ${String(fault.writes_refused_s)} s; ` +
        `redirects 5xx ${String(fault.redirects_5xx)}, failed ${String(fault.redirects_failed)}`,
    ]),
  );
  for (const [name, problems] of Object.entries(
    report.problems_logged as Record<string, Record<string, number>>,
  )) {
    const top = Object.entries(problems)
      .sort(([, x], [, y]) => y - x)
      .slice(0, 8);
    if (top.length > 0)
      rows(
        `${name}: its most frequent warnings and errors`,
        top.map(([what, n]) => [String(n), what]),
      );
  }
  rows(
    'checks',
    checks.map((c) => [
      c.name,
      `${c.pass ? 'pass' : 'FAIL'}  ${c.value} (must be ${c.expected})  ${c.detail}`,
    ]),
  );
  console.log(
    `\n${checks.every((c) => c.pass) ? 'PASSED' : 'FAILED'}; report in ${join(HA_DIR, 'report.json')}`,
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
