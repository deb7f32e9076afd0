import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { LayoutName } from './options';
import { freePort, track } from './processes';

const run = promisify(execFile);

/** Where Debian installs PostgreSQL's and PgBouncer's programs. */
const POSTGRES_LIB = '/usr/lib/postgresql';
const PGBOUNCER = '/usr/sbin/pgbouncer';
/** PgBouncer's server connections: the service's own pool size, so that the rows measure the hop, not a narrower pool. */
const PGBOUNCER_POOL_SIZE = 10;
const REPLAY_TIMEOUT_MS = 120_000;

const asRoot = process.getuid?.() === 0;

/** The directory of the newest PostgreSQL's programs installed, or null. */
function postgresBin(): string | null {
  if (!existsSync(POSTGRES_LIB)) return null;
  const versions = readdirSync(POSTGRES_LIB)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(POSTGRES_LIB, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? null : join(POSTGRES_LIB, versions[0], 'bin');
}

/** What the layouts asked for need and this machine lacks, in a sentence; null when nothing is missing. */
export function missingForLayouts(layouts: readonly LayoutName[]): string | null {
  const missing: string[] = [];
  if (layouts.includes('pgbouncer') && !existsSync(PGBOUNCER))
    missing.push(`${PGBOUNCER} (apt-get install pgbouncer)`);
  if (layouts.includes('replica') && postgresBin() === null)
    missing.push(`PostgreSQL's initdb under ${POSTGRES_LIB}`);
  if (asRoot && layouts.some((layout) => layout !== 'direct') && !existsSync('/usr/sbin/runuser')) {
    missing.push('runuser, to run PostgreSQL as the postgres user');
  }
  return missing.length === 0 ? null : `--layouts needs ${missing.join(' and ')}`;
}

/** PostgreSQL and PgBouncer refuse to run as root: as root, their programs run as the `postgres` user. */
function asPostgres(program: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

/** A directory of the run's own that the `postgres` user may write in. */
function ownedDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asRoot) {
    const uid = Number(execFileSyncText('id', ['-u', 'postgres']));
    const gid = Number(execFileSyncText('id', ['-g', 'postgres']));
    chownSync(dir, uid, gid);
  }
  return dir;
}

function execFileSyncText(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8' }).trim();
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * A PostgreSQL server of the run's own and a replica streaming from it, made with initdb and pg_basebackup on free
 * loopback ports in a directory removed by {@link stop}. With the replica layout, the primary is the bench's
 * database server for every layout of the run, so that the layouts read the same data on the same server.
 * Autovacuum is off on both, as on the server the earlier tables were measured on.
 */
export class ReplicaPair {
  private constructor(
    private readonly dir: string,
    private readonly bin: string,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  /** A pair not yet started, so that the caller holds it, to stop, before anything runs. */
  static async create(): Promise<ReplicaPair> {
    const bin = postgresBin();
    if (bin === null) throw new Error(`No PostgreSQL under ${POSTGRES_LIB}`);
    return new ReplicaPair(ownedDirectory('shortlink-bench-pair-'), bin, await freePort(), await freePort());
  }

  /** The URL of a database on the primary (`postgres` for the server itself). */
  primaryUrl(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/${database}`;
  }

  replicaUrl(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.replicaPort}/${database}`;
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const [command, all] = asPostgres(join(this.bin, program), args);
    await run(command, all, { timeout: 120_000 });
  }

  async start(): Promise<void> {
    const primary = join(this.dir, 'primary');
    await this.pg('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await this.startNode(primary, this.primaryPort);
    // -R writes the standby's settings, so that it streams from its first start; a fast checkpoint, or the backup
    // waits for the next one.
    const from = ['-h', '127.0.0.1', '-p', String(this.primaryPort), '-U', 'postgres'];
    await this.pg('pg_basebackup', [
      ...from,
      '-D',
      join(this.dir, 'replica'),
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    await this.startNode(join(this.dir, 'replica'), this.replicaPort);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await query<{ count: number }>(
        this.primaryUrl(),
        "SELECT count(*)::int AS count FROM pg_stat_replication WHERE state = 'streaming'",
      );
      if (row.count > 0) return;
      if (Date.now() > deadline) throw new Error('The replica did not start streaming within 30 s');
      await sleep(100);
    }
  }

  private async startNode(dataDir: string, port: number): Promise<void> {
    const settings = `-p ${port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c autovacuum=off`;
    await this.pg('pg_ctl', [
      '-D',
      dataDir,
      '-o',
      settings,
      '-l',
      join(this.dir, `${port}.log`),
      '-w',
      'start',
    ]);
  }

  /**
   * Waits until the replica has replayed all the primary wrote so far: the seed's rows, or the service would read the
   * primary (a replica further behind than REPLICA_MAX_LAG_MS is not read) and the rows would not measure the replica.
   */
  async caughtUp(): Promise<void> {
    const [{ lsn }] = await query<{ lsn: string }>(
      this.primaryUrl(),
      'SELECT pg_current_wal_lsn()::text AS lsn',
    );
    const deadline = Date.now() + REPLAY_TIMEOUT_MS;
    for (;;) {
      const [row] = await query<{ behind: boolean }>(
        this.replicaUrl(),
        'SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind',
        [lsn],
      );
      if (!row.behind) return;
      if (Date.now() > deadline)
        throw new Error(`The replica had not replayed ${lsn} in ${REPLAY_TIMEOUT_MS} ms`);
      await sleep(100);
    }
  }

  /** Scans of the tables of a database on the replica, as the replica counts them: what was read there. */
  async replicaScans(database: string): Promise<number> {
    const [row] = await query<{ scans: string }>(
      this.replicaUrl(database),
      'SELECT COALESCE(sum(seq_scan + COALESCE(idx_scan, 0)), 0) AS scans FROM pg_stat_user_tables',
    );
    return Number(row.scans);
  }

  async stop(): Promise<void> {
    for (const node of ['replica', 'primary']) {
      if (existsSync(join(this.dir, node, 'postmaster.pid'))) {
        await this.pg('pg_ctl', ['-D', join(this.dir, node), '-m', 'immediate', '-w', 'stop']).catch(
          () => undefined,
        );
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * PgBouncer in transaction mode on a free loopback port, in front of the bench's database server: every database
 * name is passed on to that server. PgBouncer refuses the startup parameter that carries the service's statement
 * timeout unless told to ignore it (docs/OPERATIONS.md, "PgBouncer").
 */
export class PgBouncer {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(serverUrl: string, logFile: string): Promise<PgBouncer> {
    const server = new URL(serverUrl);
    const bouncer = new PgBouncer(ownedDirectory('shortlink-bench-pgbouncer-'), await freePort());
    try {
      await bouncer.boot(server, logFile);
    } catch (error) {
      await bouncer.stop();
      throw error;
    }
    return bouncer;
  }

  /** The URL of a database through PgBouncer, as the service's DATABASE_URL. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  private async boot(server: URL, logFile: string): Promise<void> {
    const user = decodeURIComponent(server.username || 'postgres');
    const password = decodeURIComponent(server.password);
    const target = [
      `host=${server.hostname === 'localhost' ? '127.0.0.1' : server.hostname}`,
      `port=${server.port || '5432'}`,
      ...(password === '' ? [] : [`user=${user}`, `password=${password}`]),
    ].join(' ');
    const config = join(this.dir, 'pgbouncer.ini');
    writeFileSync(join(this.dir, 'userlist.txt'), `"${user}" ""\n`);
    writeFileSync(
      config,
      [
        '[databases]',
        `* = ${target}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${this.port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(this.dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        `default_pool_size = ${PGBOUNCER_POOL_SIZE}`,
        'ignore_startup_parameters = extra_float_digits, statement_timeout',
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
    );
    if (asRoot) {
      const uid = Number(execFileSyncText('id', ['-u', 'postgres']));
      const gid = Number(execFileSyncText('id', ['-g', 'postgres']));
      for (const file of ['pgbouncer.ini', 'userlist.txt']) chownSync(join(this.dir, file), uid, gid);
    }
    const log = createWriteStream(logFile, { flags: 'a' });
    // PgBouncer switches to the postgres user itself (-u), so that the process the run tracks is PgBouncer's own and
    // a SIGKILL on the way out reaches it.
    const args = asRoot ? ['-u', 'postgres', config] : [config];
    const child = track(spawn(PGBOUNCER, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('exit', () => log.end());
    this.child = child;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`PgBouncer exited (${child.exitCode}); its log: ${logFile}`);
      const ready = await query(this.url(new URL('/postgres', server).toString()), 'SELECT 1').then(
        () => true,
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`PgBouncer did not answer in 10 s; its log: ${logFile}`);
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
