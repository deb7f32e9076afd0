import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'pg';

const HARNESS_APPLICATION = 'shortlink-bench';

/** A scratch database of its own for one bench run, on the server of BENCH_DATABASE_URL. */
export class BenchDatabase {
  readonly name: string;
  readonly url: string;
  private pool: Pool | null = null;
  private created = false;
  /** Databases of the same run on the same server (a second instance's), dropped with this one. */
  private readonly siblings: BenchDatabase[] = [];

  constructor(
    private readonly serverUrl: string,
    name = `shortlink_bench_${Date.now()}`,
  ) {
    this.name = name;
    const url = new URL(serverUrl);
    url.pathname = `/${this.name}`;
    this.url = url.toString();
  }

  /** Another scratch database of this run, `<this name>_<suffix>`, dropped when this one is, on a failure too. */
  sibling(suffix: string): BenchDatabase {
    const sibling = new BenchDatabase(this.serverUrl, `${this.name}_${suffix}`);
    this.siblings.push(sibling);
    return sibling;
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
    const failures: Error[] = [];
    for (const sibling of this.siblings.splice(0)) {
      await sibling
        .drop()
        .catch((error: unknown) => failures.push(error instanceof Error ? error : new Error(String(error))));
    }
    const pool = this.pool;
    this.pool = null;
    await pool?.end().catch(() => undefined);
    if (this.created) {
      this.created = false;
      // FORCE ends whatever still holds a connection, such as a service that was killed mid-request.
      await this.onServer(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`);
    }
    if (failures.length > 0) throw failures[0];
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
