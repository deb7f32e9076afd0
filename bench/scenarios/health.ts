import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BROWSER_UA,
  countedClicks,
  linkIds,
  recordedClicks,
  type BenchContext,
  type Scenario,
} from '../context';
import { burst } from '../http';
import { grouped, type Row } from '../report';
import { clickFacts, clickProblems, compare, Tally, timedRow, verdict, type Comparison } from './common';

/** Hosts the checked links' targets are spread over: loopback addresses, each a host of its own to the checker. */
const HOSTS = { full: 1000, quick: 20 };
/** How long the wave of checks may take to begin once its links are due (the checker looks every few seconds). */
const START_WAIT_MS = 30_000;
/** The redirect while the checker works keeps this share of its rate before, at least. */
const MIN_SHARE_BEFORE = 0.9;

/**
 * The checks' target: answers every request 200 without a body, and counts the requests per host and second, so
 * that the checker's manners are read from what a site sees.
 */
class CheckedSites {
  private readonly server: Server;
  private readonly perHostSecond = new Map<string, number>();
  requests = 0;
  first: number | null = null;
  last: number | null = null;

  constructor() {
    this.server = createServer((request, response) => {
      const now = Date.now();
      this.requests += 1;
      this.first ??= now;
      this.last = now;
      const key = `${request.socket.localAddress ?? ''} ${Math.floor(now / 1000)}`;
      this.perHostSecond.set(key, (this.perHostSecond.get(key) ?? 0) + 1);
      response.writeHead(200, { 'Content-Length': '0', Connection: 'close' });
      response.end();
    });
  }

  /** Listens on every address (the loopback ones among them), on a free port. */
  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '0.0.0.0', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** The most requests one host had within one calendar second. */
  mostPerHostSecond(): number {
    return Math.max(0, ...this.perHostSecond.values());
  }

  hosts(): number {
    return new Set([...this.perHostSecond.keys()].map((key) => key.split(' ')[0])).size;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Inserts `count` links of the bench account whose targets are spread over `hosts` loopback addresses (127.0.x.y:
 * all of 127.0.0.0/8 reaches this machine, each address a host of its own to the checker), with their checks due
 * an hour from now (the insert trigger makes them due at once): seeded in one transaction, so that the checker
 * never sees them due before the wave is let go. Returns the id they start after.
 */
async function seedCheckedLinks(
  context: BenchContext,
  count: number,
  hosts: number,
  port: number,
): Promise<number> {
  const { db } = context.database;
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ max: number }>(
      'SELECT COALESCE(max(id), 0)::int AS max FROM links',
    );
    const before = rows[0].max;
    await client.query(
      `INSERT INTO links (account_id, domain_id, alias, url)
       SELECT $1::int, $2::int, 'h-' || n,
              'http://127.0.' || ((n % $4::int) / 250) || '.' || ((n % $4::int) % 250 + 1) || ':' || $5::int || '/t/' || n
         FROM generate_series(1, $3::int) AS n`,
      [context.fixtures.accountId, context.fixtures.systemDomainId, count, hosts, port],
    );
    await client.query(`UPDATE link_checks SET due_at = now() + interval '1 hour' WHERE link_id > $1`, [
      before,
    ]);
    await client.query('COMMIT');
    for (const table of ['links', 'link_checks', 'link_counters']) await db.query(`VACUUM ANALYZE ${table}`);
    return before;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** Checks the checker recorded for the seeded links: (ok, any verdict). */
async function recordedChecks(
  context: BenchContext,
  after: number,
): Promise<{ ok: number; checked: number }> {
  const { rows } = await context.database.db.query<{ ok: string; checked: string }>(
    `SELECT count(*) FILTER (WHERE status = 1) AS ok, count(*) FILTER (WHERE checked_at IS NOT NULL) AS checked
       FROM link_checks WHERE link_id > $1`,
    [after],
  );
  return { ok: Number(rows[0].ok), checked: Number(rows[0].checked) };
}

/**
 * Link health at scale (issue 39: a million links): links whose targets are spread over loopback hosts, served by
 * a site that counts what it is asked. Redirects are timed beside the baseline twice: while no check is due, then
 * during the wave, once every seeded link fell due at once, so that the second row's share of the first is what the
 * checker costs the redirect. Checked: no host asked twice within a second, checks recorded as `ok`, every redirect
 * counted.
 */
export const healthChecks: Scenario = {
  env: { LINK_CHECKS: 'true', LINK_CHECK_ALLOW_PRIVATE_ADDRESSES: 'true' },
  async run(context) {
    const { options, service } = context;
    const sites = new CheckedSites();
    const port = await sites.start();
    const hosts = options.quick ? HOSTS.quick : HOSTS.full;
    const seeding = performance.now();
    const after = await seedCheckedLinks(context, options.healthLinks, hosts, port);
    const seededIn = (performance.now() - seeding) / 1000;

    const ids = await linkIds(context, context.plainAliases);
    const before = {
      recorded: await recordedClicks(context, ids),
      counted: await countedClicks(context, ids),
    };
    const tally = new Tally();
    const headers = { 'User-Agent': BROWSER_UA };
    const spec = {
      paths: context.plainAliases.map((alias) => `/${alias}`),
      headers,
      connections: options.connections,
    };
    const problems: string[] = [];
    const load = async (): Promise<Comparison | null> => {
      if (!options.quick) return compare(context, spec, tally);
      tally.addBurst(
        await burst(service.origin, 200, options.connections, (index) => ({
          path: spec.paths[index % spec.paths.length],
          headers,
        })),
      );
      return null;
    };

    const idle = await load();
    if (sites.requests > 0) problems.push(`${grouped(sites.requests)} checks before the wave`);
    const wave = performance.now();
    await context.database.db.query('UPDATE link_checks SET due_at = now() WHERE link_id > $1', [after]);
    const started = Date.now();
    while (sites.requests === 0 && Date.now() - started < START_WAIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (sites.requests === 0) problems.push(`no check within ${START_WAIT_MS / 1000} s of the wave`);
    const atStart = sites.requests;
    const loadStarted = performance.now();
    const busy = await load();
    const duringLoad = sites.requests - atStart;
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const waveSeconds = (performance.now() - wave) / 1000;
    const checks = await recordedChecks(context, after);
    await sites.stop();
    const most = sites.mostPerHostSecond();
    if (most > 1) problems.push(`a host was asked ${most} times within a second`);
    if (checks.checked > 0 && checks.ok !== checks.checked) {
      problems.push(`${grouped(checks.checked - checks.ok)} of ${grouped(checks.checked)} checks not ok`);
    }

    return async (exitCode): Promise<Row[]> => {
      const recorded = (await recordedClicks(context, ids)) - before.recorded;
      const counted = (await countedClicks(context, ids)) - before.counted;
      problems.push(...clickProblems(tally, recorded, counted, exitCode));
      if (tally.others.size > 0) problems.push(`answers other than 3xx: ${tally.othersText()}`);
      const share = idle === null || busy === null ? null : busy.service.rps / idle.service.rps;
      const ratioBefore =
        idle?.baseline === null || idle === null
          ? ''
          : `, ${(idle.service.rps / idle.baseline.rps).toFixed(2)} before`;
      const rate = duringLoad / loadSeconds;
      const facts =
        `${grouped(options.healthLinks)} links on ${grouped(hosts)} hosts, seeded in ${seededIn.toFixed(0)} s; ` +
        `${grouped(sites.requests)} checks from ${grouped(sites.hosts())} hosts in ${waveSeconds.toFixed(0)} s ` +
        `(${rate.toFixed(0)}/s under the load), ${grouped(checks.ok)} recorded ok, at most ${most} a host a second` +
        `${share === null ? '' : `; ${share.toFixed(2)} of the req/s with no check due${ratioBefore}`}; ` +
        clickFacts(tally, recorded);
      const timed = timedRow('redirect during health checks', busy, { minRatio: 0.5 });
      if (share !== null) {
        timed.target = `${timed.target}, ≥${MIN_SHARE_BEFORE}× idle`;
        timed.met = timed.met === true && share >= MIN_SHARE_BEFORE;
      }
      return [{ ...timed, ...verdict(problems, facts) }];
    };
  },
};
