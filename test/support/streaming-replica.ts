import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './process';
import { sleep } from './sleep';

const run = promisify(execFile);

/** PostgreSQL 15's programs, as Debian installs them. */
const BIN = '/usr/lib/postgresql/15/bin';

/** Whether a primary and a streaming replica can be made here: PostgreSQL's programs, and a user to run them as. */
export function canStreamReplicas(): boolean {
  return existsSync(join(BIN, 'initdb')) && (process.getuid?.() !== 0 || existsSync('/usr/sbin/runuser'));
}

/** A program of PostgreSQL's, as the `postgres` user when the tests run as root (PostgreSQL refuses root). */
async function pg(program: string, args: string[]): Promise<string> {
  const asRoot = process.getuid?.() === 0;
  const [command, all] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]]
    : [join(BIN, program), args];
  const { stdout } = await run(command, all, { timeout: 60_000 });
  return stdout;
}

/**
 * A PostgreSQL server of the test's own and a replica streaming from it, both on loopback ports, in a directory
 * removed by {@link stop}: what `DATABASE_REPLICA_URL` reads from, made with `initdb` and `pg_basebackup`.
 */
export class StreamingReplica {
  private constructor(
    private readonly dir: string,
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  static async start(database: string): Promise<StreamingReplica> {
    const dir = mkdtempSync(join(tmpdir(), 'shortlink-replica-'));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: group } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(group.trim()));
    }
    const cluster = new StreamingReplica(dir, await freePort(), await freePort());
    try {
      await cluster.boot(database);
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  url(port: number, database: string): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  private async boot(database: string): Promise<void> {
    const primary = join(this.dir, 'primary');
    const replica = join(this.dir, 'replica');
    await pg('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await this.start(primary, this.primaryPort);
    const client = new Client({ connectionString: this.url(this.primaryPort, 'postgres') });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${database}`);
    } finally {
      await client.end();
    }
    // -R writes the standby's settings: it streams from the primary from its first start.
    // A fast checkpoint: the default spreads it over minutes.
    const from = ['-h', '127.0.0.1', '-p', String(this.primaryPort), '-U', 'postgres'];
    await pg('pg_basebackup', [...from, '-D', replica, '-R', '-X', 'stream', '-c', 'fast']);
    await this.start(replica, this.replicaPort);
    await this.untilStreaming();
  }

  private async start(dataDir: string, port: number): Promise<void> {
    const options = `-p ${port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c autovacuum=off`;
    await pg('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(this.dir, `${port}.log`), '-w', 'start']);
  }

  /** Waits until the replica streams from the primary (again, after the primary restarted). */
  async untilStreaming(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const [row] = await this.onPrimary<{ count: number }>(
        "SELECT count(*)::int AS count FROM pg_stat_replication WHERE state = 'streaming'",
      );
      if (row.count > 0) return;
      await sleep(100);
    }
    throw new Error('The replica did not start streaming within 30 s');
  }

  private async on<T>(port: number, sql: string, database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(port, database) });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** The rows of a statement run on the primary, in `database`. */
  onPrimary<T>(sql: string, database = 'postgres'): Promise<T[]> {
    return this.on<T>(this.primaryPort, sql, database);
  }

  /** Waits until the replica has replayed everything the primary has written so far. */
  async untilCaughtUp(): Promise<void> {
    const [{ lsn }] = await this.onPrimary<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const [row] = await this.on<{ behind: boolean }>(
        this.replicaPort,
        `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
      );
      if (!row.behind) return;
      await sleep(50);
    }
    throw new Error('The replica did not catch up within 30 s');
  }

  /** Stops applying what it receives: from now on, the replica falls behind. */
  async pauseReplay(): Promise<void> {
    await this.on(this.replicaPort, 'SELECT pg_wal_replay_pause()');
  }

  async resumeReplay(): Promise<void> {
    await this.on(this.replicaPort, 'SELECT pg_wal_replay_resume()');
  }

  /** The primary's server stops at once, as a crash would. */
  async stopPrimary(): Promise<void> {
    await pg('pg_ctl', ['-D', join(this.dir, 'primary'), '-m', 'immediate', '-w', 'stop']);
  }

  /** The primary's server starts again (after {@link stopPrimary}: crash recovery first). */
  async startPrimary(): Promise<void> {
    await this.start(join(this.dir, 'primary'), this.primaryPort);
  }

  /** The replica becomes a primary, taking writes (what Patroni or an operator does after losing the primary). */
  async promote(): Promise<void> {
    await pg('pg_ctl', ['-D', join(this.dir, 'replica'), '-w', 'promote']);
  }

  /** The replica's server stops at once, as a crash would. */
  async stopReplica(): Promise<void> {
    await pg('pg_ctl', ['-D', join(this.dir, 'replica'), '-m', 'immediate', '-w', 'stop']);
  }

  async stop(): Promise<void> {
    for (const node of ['replica', 'primary']) {
      if (existsSync(join(this.dir, node, 'postmaster.pid'))) {
        await pg('pg_ctl', ['-D', join(this.dir, node), '-m', 'immediate', '-w', 'stop']).catch(() => '');
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
