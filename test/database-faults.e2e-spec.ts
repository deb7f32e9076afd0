import type { Pool } from 'pg';
import { DataSource, type QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { dataSourceOptions } from '../src/database/data-source-options';
import {
  childEnv,
  cliAccount,
  killAllChildren,
  recordedClicks,
  startServer,
  type ServerProcess,
} from './support/process';
import { sleep } from './support/sleep';
import { TcpProxy } from './support/tcp-proxy';
import { onRealPostgres } from './support/test-database';
import { UA, unique } from './support/visitors';

/** The contract: a client learns within this long that the database is away. */
const BUDGET_MS = 5_000;
const UNAVAILABLE = { message: 'Service unavailable.', status: 503 };

/** Low bounds, so that the test is quick; the defaults are higher but within the same budget. */
const SETTINGS = {
  DATABASE_STATEMENT_TIMEOUT_MS: '500',
  DATABASE_POOL_TIMEOUT_MS: '1000',
  DATABASE_POOL_SIZE: '5',
};

type Outcome =
  | { status: number; body: unknown; ms: number; retryAfter: string | null }
  | { status: 'no answer'; ms: number };

/** 'answered' or 'failed', or 'no answer' when the promise is still pending after `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(
        () => 'answered',
        () => 'failed',
      ),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('no answer'), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/*
 * The server runs as its own process, as in production: inside a jest worker, errors raised by Node itself (a reset
 * socket) come from another realm and fail `instanceof Error`, which would test the sandbox rather than the service.
 */
describe('database faults', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let apiKey: string;
  let spaces = 0;

  /** The answer to a request and how long it took; one still unanswered after the budget and a margin is cut. */
  async function timed(path: string, init: RequestInit = {}): Promise<Outcome> {
    const started = Date.now();
    try {
      const response = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        signal: AbortSignal.timeout(BUDGET_MS + 2_000),
      });
      const body: unknown = await response.json();
      const retryAfter = response.headers.get('retry-after');
      return { status: response.status, body, ms: Date.now() - started, retryAfter };
    } catch {
      return { status: 'no answer', ms: Date.now() - started };
    }
  }

  /** A visit to a short link as a browser makes it: the status, where it leads, and how long it took. */
  async function visit(
    alias: string,
  ): Promise<{ status: number | 'no answer'; location?: string; ms: number }> {
    const started = Date.now();
    try {
      const response = await fetch(`${server.url}/${alias}`, {
        redirect: 'manual',
        headers: { 'User-Agent': UA.macSafari },
        signal: AbortSignal.timeout(BUDGET_MS + 2_000),
      });
      await response.arrayBuffer();
      return {
        status: response.status,
        location: response.headers.get('location') ?? undefined,
        ms: Date.now() - started,
      };
    } catch {
      return { status: 'no answer', ms: Date.now() - started };
    }
  }

  /** A mix of API calls, reads and a write, each needing the database from the key check on. */
  function apiCalls(count: number): Promise<Outcome[]> {
    return Promise.all(
      Array.from({ length: count }, (_, index) => {
        switch (index % 4) {
          case 0:
            return timed('/api/v1/account');
          case 1:
            return timed('/api/v1/links');
          case 2:
            return timed('/api/v1/spaces');
          default:
            spaces += 1;
            return timed('/api/v1/spaces', {
              method: 'POST',
              body: JSON.stringify({ name: `Space ${spaces}` }),
            });
        }
      }),
    );
  }

  /** Every call answered with a success; a failure shows the others' statuses (or 'no answer') in the diff. */
  function expectAllSucceeded(outcomes: Outcome[]): void {
    const statuses = outcomes.map((outcome) =>
      outcome.status === 200 || outcome.status === 201 ? 'ok' : outcome.status,
    );
    expect(statuses).toEqual(Array(outcomes.length).fill('ok'));
  }

  /**
   * Every call answered the contract's 503 within the budget, saying when to try again; a failure lists the calls
   * that did not.
   */
  function expectAllUnavailable(outcomes: Outcome[]): void {
    const others = outcomes.filter(
      (outcome) =>
        !(
          outcome.status === 503 &&
          JSON.stringify(outcome.body) === JSON.stringify(UNAVAILABLE) &&
          outcome.retryAfter === '1' &&
          outcome.ms < BUDGET_MS
        ),
    );
    expect(others).toEqual([]);
  }

  beforeAll(async () => {
    const databaseUrl = process.env.DATABASE_URL!;
    ({ apiKey } = await cliAccount('Faults', childEnv()));

    proxy = await TcpProxy.forDatabase(databaseUrl);
    server = await startServer({
      env: childEnv({ ...SETTINGS, DATABASE_URL: proxy.urlFor(databaseUrl), INITIAL_API_KEY: undefined }),
    });
  });

  beforeEach(async () => {
    // The pool holds open connections when the fault starts, as in production.
    expectAllSucceeded(await apiCalls(8));
  });

  afterEach(() => {
    proxy.restore();
  });

  afterAll(async () => {
    proxy?.restore();
    await server?.stop();
    await killAllChildren();
    await proxy?.close();
  });

  it('answers 503 within 5 s to every request while the database is frozen, and recovers when it answers again', async () => {
    proxy.freeze();
    expectAllUnavailable(await apiCalls(20));
    expect(await timed('/health')).toMatchObject({ status: 200 });
    const ready = await timed('/health/ready');
    expect(ready).toMatchObject({ status: 503 });
    expect(ready.ms).toBeLessThan(BUDGET_MS);

    proxy.restore();
    expectAllSucceeded(await apiCalls(8));
    expect(await timed('/health/ready')).toMatchObject({ status: 200 });
    expect(server.running).toBe(true);
  });

  it.each(['freeze', 'cut'] as const)(
    'answers every visit within 5 s while the database is away (%s): the redirect of a link seen before, else 503, and records each redirect once it is back',
    async (fault) => {
      const create = async (url: string, fields: Record<string, unknown> = {}) => {
        const created = await timed('/api/v1/links', {
          method: 'POST',
          body: JSON.stringify({ url, alias: unique('fault'), ...fields }),
        });
        expect(created.status).toBe(201);
        return (created as { body: { data: { id: number; alias: string } } }).body.data;
      };
      // Seen before the fault, so cached where the instance caches; the limited one always asks the database.
      const seen = await create('https://example.com/seen');
      const limited = await create('https://example.com/limited', { clicks_limit: 100 });
      expect((await visit(seen.alias)).status).toBe(302);
      expect((await visit(limited.alias)).status).toBe(302);
      const unseen = await create('https://example.com/unseen');

      if (fault === 'freeze') proxy.freeze();
      else proxy.cut();
      // Past the change feed's probe deadline (2 s): the feed is lost, and memory no longer trusted by itself.
      await sleep(2_500);
      const during = await Promise.all(
        [seen, seen, limited, unseen, unseen].map((link) => visit(link.alias)),
      );
      const outcomes = during.map((answer) => ({
        ok: (answer.status === 302 || answer.status === 503) && answer.ms < BUDGET_MS,
        answer,
      }));
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
      // A link seen before is answered as it was last known, though the feed that kept it correct is lost too; a
      // link whose visit must be written before the redirect cannot be served without the database.
      expect(during.map((answer) => answer.status)).toEqual([302, 302, 503, 503, 503]);
      const unavailable = await fetch(`${server.url}/${unseen.alias}`, {
        redirect: 'manual',
        signal: AbortSignal.timeout(BUDGET_MS + 2_000),
      });
      expect(unavailable.status).toBe(503);
      expect(await unavailable.text()).not.toMatch(/\bat .*:\d+:\d+|QueryFailed|ECONN|SELECT/);
      expect(await timed('/health')).toMatchObject({ status: 200 });
      expect(await timed('/health/ready')).toMatchObject({ status: 503 });

      proxy.restore();
      expectAllSucceeded(await apiCalls(4));
      expect((await visit(unseen.alias)).status).toBe(302);
      // Every redirect answered is recorded, those answered during the fault too (held, then written once).
      const links = [seen, seen, limited, unseen, unseen];
      const during302 = (link: { alias: string }) =>
        during.filter((answer, index) => answer.status === 302 && links[index] === link).length;
      // An API read has the instance write what it holds.
      for (const link of [seen, limited, unseen]) {
        expect((await timed(`/api/v1/links/${link.id}`)).status).toBe(200);
      }
      const afterwards = {
        seen: await recordedClicks(seen.id),
        unseen: await recordedClicks(unseen.id),
      };
      expect(afterwards).toEqual({
        seen: { counter: during302(seen) + 1, rows: during302(seen) + 1 },
        unseen: { counter: during302(unseen) + 1, rows: during302(unseen) + 1 },
      });
      // A claim whose answer was lost may have reached the database all the same (a frozen network delivers it
      // late): such a visit got 503 and may be counted. So a limit is never exceeded, and the count is at most the
      // visits answered 503 over the redirects, never under them.
      const claims = await recordedClicks(limited.id);
      expect(claims.rows).toBe(claims.counter);
      expect(claims.counter).toBeGreaterThanOrEqual(during302(limited) + 1);
      expect(claims.counter).toBeLessThanOrEqual(during302(limited) + 1 + 1);
    },
  );

  it('answers 503 within 5 s while every connection to the database is reset, and recovers when it is back', async () => {
    proxy.cut();
    expectAllUnavailable(await apiCalls(20));
    expect(await timed('/health')).toMatchObject({ status: 200 });
    const ready = await timed('/health/ready');
    expect(ready).toMatchObject({ status: 503 });
    expect(ready.ms).toBeLessThan(BUDGET_MS);

    proxy.restore();
    expectAllSucceeded(await apiCalls(8));
    expect(server.running).toBe(true);
  });
});

describe('database faults: statement timeouts', () => {
  let proxy: TcpProxy;
  let dataSource: DataSource;

  beforeAll(async () => {
    const databaseUrl = process.env.DATABASE_URL!;
    proxy = await TcpProxy.forDatabase(databaseUrl);
    dataSource = await new DataSource(
      dataSourceOptions(proxy.urlFor(databaseUrl), {
        statementTimeoutMs: 300,
        poolTimeoutMs: 500,
        poolSize: 2,
      }),
    ).initialize();
  });

  afterAll(async () => {
    proxy?.restore();
    if (dataSource?.isInitialized) await dataSource.destroy();
    await proxy?.close();
  });

  // PGlite accepts the setting but never cancels a statement: it runs each one to its end inside its process.
  const itOnPostgres = onRealPostgres() ? it : it.skip;
  itOnPostgres(
    'has the server cancel a statement that runs too long, and keeps the connection (PostgreSQL only: the embedded database does not enforce statement_timeout)',
    async () => {
      const pool = (dataSource.driver as PostgresDriver).master as Pool;
      const started = Date.now();
      const error = await dataSource.query('SELECT pg_sleep(3)').then(
        () => null,
        (failure: QueryFailedError) => failure,
      );
      // Cancelled before the sleep ends, by the server (57014), not by the client's bound a second later.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((error?.driverError as { code?: string } | undefined)?.code).toBe('57014');
      // Cancelled by the server, the connection is sound and stays in the pool.
      expect(pool.totalCount).toBeGreaterThan(0);
      await expect(dataSource.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    },
  );

  it('closes a connection whose query timed out on the client side, never handing it out again', async () => {
    const pool = (dataSource.driver as PostgresDriver).master as Pool;
    await Promise.all([dataSource.query('SELECT 1'), dataSource.query('SELECT 1')]);
    expect(pool.totalCount).toBeGreaterThan(0);

    proxy.freeze();
    const failures = await Promise.all(
      [1, 2].map(() => settledWithin(dataSource.query('SELECT 1'), BUDGET_MS)),
    );
    expect(failures).toEqual(['failed', 'failed']);
    // Every connection that was open during the freeze is gone from the pool (connects still pending end too).
    const deadline = Date.now() + 3_000;
    while (pool.totalCount > 0 && Date.now() < deadline) await sleep(50);
    expect(pool.totalCount).toBe(0);

    proxy.restore();
    await expect(dataSource.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });
});
