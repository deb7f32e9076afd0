import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';

const HARNESS_APPLICATION = 'shortlink-bench';

/** A scratch database of its own for one bench run, on the server of BENCH_DATABASE_URL. */
export class BenchDatabase {
  readonly name = `shortlink_bench_${Date.now()}`;
  readonly url: string;
  private pool: Pool | null = null;
  private created = false;

  constructor(private readonly serverUrl: string) {
    const url = new URL(serverUrl);
    url.pathname = `/${this.name}`;
    this.url = url.toString();
  }

  async create(): Promise<void> {
    await this.onServer(`CREATE DATABASE "${this.name}"`);
    this.created = true;
  }

  /** Connections of the harness's own: counting, seeding, EXPLAIN. Never the service's. */
  get db(): Pool {
    if (this.pool === null) {
      this.pool = new Pool({ connectionString: this.url, max: 2, application_name: HARNESS_APPLICATION });
      // An idle connection ended by the server (the database dropped on the way out) is no error of the run.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  /** Closes the harness's connections, whose backends report their table statistics as they exit. */
  async closeConnections(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }

  /** Waits until no one but the harness is connected: a stopped service's backends have exited. */
  async waitForOthersToLeave(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.db.query<{ count: string }>(
        `SELECT count(*) AS count FROM pg_stat_activity
          WHERE datname = current_database() AND backend_type = 'client backend' AND application_name <> $1`,
        [HARNESS_APPLICATION],
      );
      if (Number(rows[0].count) === 0 || Date.now() > deadline) return;
      await sleep(50);
    }
  }

  async drop(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end().catch(() => undefined);
    if (!this.created) return;
    this.created = false;
    // FORCE ends whatever still holds a connection, such as a service that was killed mid-request.
    await this.onServer(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`);
  }

  private async onServer(sql: string): Promise<void> {
    const client = new Client({ connectionString: this.serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}
