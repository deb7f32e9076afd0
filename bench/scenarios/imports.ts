import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool, PoolClient } from 'pg';
import {
  BROWSER_UA,
  countedClicks,
  linkIds,
  recordedClicks,
  type BenchContext,
  type Scenario,
} from '../context';
import { machineCpuMs, postgresCpuMs, processCpuMs } from '../cpu';
import type { BenchDatabase } from '../database';
import { api } from '../http';
import { IMPORT_DAYS } from '../options';
import { freePort, Service } from '../processes';
import { grouped, type Row } from '../report';
import { clickFacts, clickProblems, compare, Tally, timedRow, verdict, type Comparison } from './common';

/**
 * An import from a phpShort source that is a second instance of this service (contract §12; the issue: 100,000
 * links with 1,000,000 click-days within 3 minutes, the redirect keeping its targets meanwhile). The source runs on
 * a database of its own on the bench's server: its account, spaces, pixel and custom domain made through its API,
 * then its links, counters and rollups seeded in SQL. The bench's service imports it through `POST /api/v1/imports`
 * while the plain redirect load is measured, once without the import and once while it runs.
 */

/** The issue's size and time: a bigger or smaller run is given the same rate. */
const ISSUE_LINKS = 100_000;
const ISSUE_CLICK_DAYS = 1_000_000;
const ISSUE_SECONDS = 180;
/** The redirect's targets of the plain row. */
const REDIRECT_TARGETS = { minRatio: 0.5, maxP99Ms: 10 };
/**
 * While the import runs, on a machine it shares: the same ratio, and a p99 within 10 ms or 1.5 times the bare
 * server's under the same import, whichever is more. On two cores an import keeps busy (the bench's machine), the
 * bare `node:http` server's own p99 passes 10 ms under a saturating load: no service could keep that figure there.
 */
function importingTargets(comparison: Comparison): { minRatio: number; maxP99Ms: number } {
  const baselineP99 = comparison.baseline?.p99Ms ?? 0;
  return {
    minRatio: REDIRECT_TARGETS.minRatio,
    maxP99Ms: Math.max(REDIRECT_TARGETS.maxP99Ms, 1.5 * baselineP99),
  };
}
/** The import's settings: a source on this machine, read as fast as it answers. */
const IMPORT_ENV = {
  IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true',
  IMPORT_REQUESTS_PER_SECOND: process.env.BENCH_IMPORT_RPS ?? '20',
};
/**
 * The bench's service answers visitors and the API and runs no import (IMPORT_RUNNER=false), as docs/OPERATIONS.md
 * advises; a second instance on the same database, which no visitor reaches, runs it.
 */
const SERVICE_ENV = { ...IMPORT_ENV, IMPORT_RUNNER: 'false' };
const WORKER_ENV = { ...IMPORT_ENV, IMPORT_RUNNER: 'true' };
/** How often the import is asked for while it runs: every 100 ms in quick mode, every 500 ms otherwise. */
const POLL_MS = { quick: 100, full: 500 };
const IMPORT_TIMEOUT_MS = 30 * 60_000;
const ALIAS_PREFIX = 'imp-';
const SOURCE_DOMAIN = 'import-source.example';

/** What the source's links point at, made through its API. */
interface SourceTargets {
  accountId: number;
  systemDomainId: number;
  customDomainId: number;
  spaceIds: [number, number, number];
  pixelId: number;
}

/** A set of links' rollups, summed and hashed row by row (by alias and value text): equal where equal. */
interface HistoryFacts {
  hourRows: number;
  hourClicks: number;
  hoursHash: string;
  dayRows: number;
  /** Clicks of each dimension, 1 referrer ... 8 language. */
  dimensionClicks: number[];
  daysHash: string;
}

/** What was seeded on the source, to hold the import against. */
interface SourceTotals extends HistoryFacts {
  links: number;
  clickDays: number;
  clicks: number;
}

interface SourceSetup {
  service: Service;
  database: BenchDatabase;
  apiKey: string;
  totals: SourceTotals;
}

interface ImportAnswer {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: {
    links_total: number | null;
    links_done: number;
    links_created: number;
    links_updated: number;
    links_skipped: number;
    links_failed: number;
    clicks_imported: number;
  };
  errors: { item: string; message: string }[];
}

export interface ImportsWorkload {
  notes: string[];
  unit: { name: string; scenario: Scenario };
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** Values of each dimension as clicks store them: 300 referrers, 50 countries, 500 cities (`GB:City 3`), ... */
const VALUES_SQL = `
  WITH dims AS (
    SELECT ARRAY['US','GB','DE','FR','IN','BR','JP','CA','ES','IT','NL','SE','PL','MX','AU','KR','TR','RU','ID','AR',
                 'NG','ZA','EG','CN','CH','BE','AT','PT','NO','DK','FI','IE','NZ','SG','HK','TW','TH','VN','PH','MY',
                 'CO','CL','PE','UA','RO','CZ','HU','GR','IL','AE'] AS countries,
           ARRAY['Chrome','Safari','Firefox','Edge','Opera','Samsung Internet','UC Browser','Yandex'] AS browsers,
           ARRAY['Windows','iOS','Android','OS X','Linux','Chrome OS'] AS systems,
           ARRAY['Desktop','Mobile','Tablet'] AS devices,
           ARRAY['en','es','de','fr','pt','ja','zh','ru','it','nl','ko','tr','pl','sv','ar','hi','id','vi','th','uk',
                 'cs','el','he','ro','hu'] AS languages)
  INSERT INTO click_values (dimension, value)
  SELECT 1, 'ref' || i || '.example' FROM generate_series(0, 299) AS i
  UNION ALL SELECT 2, c FROM dims, unnest(countries) AS c
  UNION ALL SELECT 3, c || ':City ' || i FROM dims, unnest(countries) AS c, generate_series(0, 9) AS i
  UNION ALL SELECT 4, unnest(ARRAY['AF','AN','AS','EU','NA','OC','SA'])
  UNION ALL SELECT 5, unnest(browsers) FROM dims
  UNION ALL SELECT 6, unnest(systems) FROM dims
  UNION ALL SELECT 7, unnest(devices) FROM dims
  UNION ALL SELECT 8, unnest(languages) FROM dims
  ON CONFLICT DO NOTHING`;

/**
 * Seeded link n: alias `imp-n`, made 400 days ago; a quarter in no space and the rest in the three, one in ten on
 * the custom domain, one in twenty with the pixel.
 */
const LINKS_SQL = `
  INSERT INTO links (account_id, domain_id, space_id, alias, url, title, created_at, updated_at)
  SELECT $1::int, CASE WHEN n % 10 = 5 THEN $3::int ELSE $2::int END,
         CASE n % 4 WHEN 0 THEN NULL WHEN 1 THEN $4::int WHEN 2 THEN $5::int ELSE $6::int END,
         '${ALIAS_PREFIX}' || n, 'https://example.com/imp/' || n || '?c=' || (n % 97), 'Imported link ' || n,
         now() - interval '400 days', now() - interval '400 days'
    FROM generate_series(1, $7::int) AS n`;

/**
 * The click-days: link n gets `$1` of them (one more for the first `$2` links) on distinct days among the
 * ${IMPORT_DAYS} before today (UTC), each with 1 to 3 hours with clicks and 1 to 20 clicks more than its hours.
 */
const CLICK_DAYS_SQL = `
  CREATE TEMP TABLE seed_days AS
  SELECT link_id, n, j, day, hours, hours + (n * 31 + j * 17) % 18 AS clicks
    FROM (SELECT s.id AS link_id, s.n, j,
                 ((now() AT TIME ZONE 'UTC')::date - 1 - (s.n * 7 + j * 37) % ${IMPORT_DAYS}) AS day,
                 1 + (s.n + j) % 3 AS hours
            FROM seeded s
           CROSS JOIN LATERAL generate_series(0, $1::int + CASE WHEN s.n <= $2::int THEN 1 ELSE 0 END - 1) AS j) d`;

/** Each click-day's clicks over its hours (at distinct hours of its day), in time order as batches write them. */
const HOURS_SQL = `
  INSERT INTO click_hours (link_id, hour, clicks)
  SELECT d.link_id, (d.day + make_interval(hours => (d.n * 5 + d.j * 3 + i * 7) % 24)) AT TIME ZONE 'UTC',
         d.clicks / d.hours + CASE WHEN i < d.clicks % d.hours THEN 1 ELSE 0 END
    FROM seed_days d CROSS JOIN LATERAL generate_series(0, d.hours - 1) AS i
   ORDER BY 2, 1`;

/**
 * A row per click-day and dimension, every click of the day on one value (unknown for a quarter of the referrers
 * and a third of the cities), in day order as batches write them.
 */
const DAYS_SQL = `
  INSERT INTO click_days (link_id, dimension, day, value, clicks)
  SELECT d.link_id, v.dimension, d.day,
         CASE WHEN (v.dimension = 1 AND (d.n + d.j) % 4 = 0) OR (v.dimension = 3 AND (d.n + d.j) % 3 = 0) THEN 0
              ELSE v.ids[1 + (d.n * 13 + d.j * 7 + v.dimension * 101) % cardinality(v.ids)] END,
         d.clicks
    FROM seed_days d
   CROSS JOIN (SELECT dimension, array_agg(id ORDER BY id) AS ids FROM click_values GROUP BY dimension) v
   ORDER BY d.day, d.link_id, v.dimension`;

/**
 * The rollups of the links `links` (a query of their ids) in one pass over each table: rows, clicks (per dimension
 * for days), and a sum of a hash of every row keyed by the link's alias and the value's text, so that two databases
 * that number links and values apart compare equal where their rows are.
 */
async function historyFacts(
  client: PoolClient,
  links: string,
  params: unknown[] = [],
): Promise<HistoryFacts> {
  const dimensions = Array.from(
    { length: 8 },
    (_, index) => `sum(d.clicks) FILTER (WHERE d.dimension = ${index + 1})`,
  );
  const hours = await client.query<{ rows: string; clicks: string; hash: string }>(
    `SELECT count(*) AS rows, COALESCE(sum(h.clicks), 0) AS clicks,
            COALESCE(sum(hashtext(l.alias || '/' || extract(epoch FROM h.hour) || '/' || h.clicks)), 0) AS hash
       FROM click_hours h JOIN links l ON l.id = h.link_id
      WHERE h.link_id IN (${links})`,
    params,
  );
  const days = await client.query<{ rows: string; clicks: (string | null)[]; hash: string }>(
    `SELECT count(*) AS rows, ARRAY[${dimensions.join(', ')}]::text[] AS clicks,
            COALESCE(sum(hashtext(l.alias || '/' || d.dimension || '/' || d.day || '/' ||
                                  COALESCE(v.value, '(unknown)') || '/' || d.clicks)), 0) AS hash
       FROM click_days d JOIN links l ON l.id = d.link_id LEFT JOIN click_values v ON v.id = d.value
      WHERE d.link_id IN (${links})`,
    params,
  );
  return {
    hourRows: Number(hours.rows[0].rows),
    hourClicks: Number(hours.rows[0].clicks),
    hoursHash: hours.rows[0].hash,
    dayRows: Number(days.rows[0].rows),
    dimensionClicks: days.rows[0].clicks.map((sum) => Number(sum ?? 0)),
    daysHash: days.rows[0].hash,
  };
}

/** The source's spaces, pixel and custom domain through its API, and the ids the seed needs. */
async function makeTargets(service: Service, apiKey: string, db: Pool): Promise<SourceTargets> {
  const post = async (path: string, body: unknown) =>
    (await api<{ data: { id: number } }>(service.origin, apiKey, { method: 'POST', path, body })).data.id;
  const keyHash = createHash('sha256').update(apiKey, 'utf8').digest('hex');
  const account = await db.query<{ account_id: number }>(
    'SELECT account_id FROM api_keys WHERE key_hash = $1',
    [keyHash],
  );
  const domain = await db.query<{ id: number }>('SELECT id FROM domains WHERE name = $1', [
    new URL(service.origin).host,
  ]);
  if (account.rows.length !== 1 || domain.rows.length !== 1) {
    throw new Error('The source made no account for INITIAL_API_KEY, or no system domain for APP_URL');
  }
  return {
    accountId: account.rows[0].account_id,
    systemDomainId: domain.rows[0].id,
    customDomainId: await post('/api/v1/domains', { name: SOURCE_DOMAIN }),
    spaceIds: [
      await post('/api/v1/spaces', { name: 'Source space 1', color: 2 }),
      await post('/api/v1/spaces', { name: 'Source space 2', color: 4 }),
      await post('/api/v1/spaces', { name: 'Source space 3', color: 6 }),
    ],
    pixelId: await post('/api/v1/pixels', { name: 'Source pixel', type: 'facebook', value: '9876543210' }),
  };
}

/** A table's primary key dropped for a bulk insert and made again: built once from sorted rows, not row by row. */
async function withoutPrimaryKey(
  client: PoolClient,
  table: string,
  columns: string,
  insert: () => Promise<unknown>,
): Promise<void> {
  const constraint = `PK_${table}`;
  await client.query(`ALTER TABLE ${table} DROP CONSTRAINT "${constraint}"`);
  await insert();
  await client.query(`ALTER TABLE ${table} ADD CONSTRAINT "${constraint}" PRIMARY KEY (${columns})`);
}

/** The source's links, pixels, values, rollups and counters, set-based; then VACUUM ANALYZE and a checkpoint. */
async function seedSource(
  db: Pool,
  targets: SourceTargets,
  links: number,
  clickDays: number,
  notes: string[],
): Promise<SourceTotals> {
  const client = await db.connect();
  try {
    let started = performance.now();
    await client.query(`SET work_mem = '256MB'`);
    await client.query(`SET maintenance_work_mem = '512MB'`);
    const [space1, space2, space3] = targets.spaceIds;
    await client.query(LINKS_SQL, [
      targets.accountId,
      targets.systemDomainId,
      targets.customDomainId,
      space1,
      space2,
      space3,
      links,
    ]);
    await client.query(
      `CREATE TEMP TABLE seeded AS
       SELECT id, substr(alias, ${ALIAS_PREFIX.length + 1})::int AS n FROM links WHERE account_id = $1`,
      [targets.accountId],
    );
    await client.query(
      'INSERT INTO link_pixels (link_id, pixel_id) SELECT id, $1 FROM seeded WHERE n % 20 = 7',
      [targets.pixelId],
    );
    await client.query(VALUES_SQL);
    await client.query(CLICK_DAYS_SQL, [Math.floor(clickDays / links), clickDays % links]);
    await withoutPrimaryKey(client, 'click_hours', 'link_id, hour', () => client.query(HOURS_SQL));
    await withoutPrimaryKey(client, 'click_days', 'link_id, dimension, day, value', () =>
      client.query(DAYS_SQL),
    );
    await client.query(
      `UPDATE link_counters c SET clicks = t.clicks, listed_clicks = t.clicks
         FROM (SELECT link_id, sum(clicks)::int AS clicks FROM seed_days GROUP BY 1) t
        WHERE c.link_id = t.link_id`,
    );
    const { rows } = await client.query<{ click_days: string; clicks: string }>(
      'SELECT count(*) AS click_days, COALESCE(sum(clicks), 0) AS clicks FROM seed_days',
    );
    notes.push(
      `Seeded the import's source: ${grouped(links)} links, ${grouped(Number(rows[0].click_days))} click-days ` +
        `(${grouped(Number(rows[0].clicks))} clicks) in ${seconds(started)}`,
    );
    started = performance.now();
    await client.query(
      'VACUUM ANALYZE links, link_counters, link_pixels, click_values, click_hours, click_days',
    );
    await client.query('CHECKPOINT').catch(() => undefined);
    notes[notes.length - 1] += `, VACUUM ANALYZE and CHECKPOINT in ${seconds(started)}.`;
    const facts = await historyFacts(client, 'SELECT id FROM seeded');
    notes[notes.length - 1] +=
      ` Rollups: ${grouped(facts.hourRows)} hour rows, ${grouped(facts.dayRows)} day rows.`;
    return {
      links,
      clickDays: Number(rows[0].click_days),
      clicks: Number(rows[0].clicks),
      ...facts,
    };
  } finally {
    // Closed rather than returned to the pool, so that its settings and temporary tables go with it.
    client.release(true);
  }
}

/**
 * The source: a database of its own beside the bench's, migrated by a first start of the second instance, which
 * also makes its account (its own key); its spaces, pixel and domain through its API; then, stopped, its links and
 * rollups seeded.
 */
export async function importsWorkload(context: BenchContext): Promise<ImportsWorkload> {
  const { options, database, scratch } = context;
  const notes: string[] = [];
  const sourceDatabase = database.sibling('source');
  await sourceDatabase.create();
  const apiKey = `source_${randomBytes(24).toString('base64url')}`;
  const service = new Service({
    databaseUrl: sourceDatabase.url,
    port: await freePort(),
    apiKey,
    logFile: join(scratch, 'source.log'),
    cpuProfileDir: options.cpuProfileDir === null ? null : join(options.cpuProfileDir, 'source'),
    visitorRateLimitPerMinute: 0,
    redis: null,
  });
  await service.start();
  let targets: SourceTargets;
  try {
    targets = await makeTargets(service, apiKey, sourceDatabase.db);
  } finally {
    await service.stop();
  }
  const totals = await seedSource(
    sourceDatabase.db,
    targets,
    options.importLinks,
    options.importClickDays,
    notes,
  );
  return {
    notes,
    unit: {
      name: 'imports',
      scenario: importsScenario({ service, database: sourceDatabase, apiKey, totals }),
    },
  };
}

/** CPU milliseconds of the processes an import keeps busy, from /proc. */
function cpuNow(target: Service, worker: Service, source: Service) {
  return {
    target: processCpuMs(target.pid),
    worker: processCpuMs(worker.pid),
    source: processCpuMs(source.pid),
    postgres: postgresCpuMs(),
    machine: machineCpuMs(),
  };
}

function cpuText(before: ReturnType<typeof cpuNow>, after: ReturnType<typeof cpuNow>): string {
  const used = (key: keyof typeof before) => {
    const start = before[key];
    const end = after[key];
    return start === null || end === null ? '?' : ((end - start) / 1000).toFixed(1);
  };
  return (
    `target ${used('target')}, its import worker ${used('worker')}, source ${used('source')}, ` +
    `pg ${used('postgres')}, all ${used('machine')}`
  );
}

/**
 * What the target holds of the source's links: how many were recorded as imported, their counters and their
 * rollups' facts, on a connection of its own without JIT (a one-off read), after ANALYZE of what the import wrote.
 */
async function importedFacts(context: BenchContext, origin: string) {
  const client = await context.database.db.connect();
  try {
    await client.query('SET jit = off');
    await client.query(`SET work_mem = '64MB'`);
    await client.query('ANALYZE imported_links, link_counters, click_hours, click_days');
    const mine = 'SELECT link_id FROM imported_links WHERE account_id = $1 AND source_origin = $2';
    const params = [context.fixtures.accountId, `phpshort:${origin}`];
    const { rows } = await client.query<{ links: string; counted: string }>(
      `SELECT count(*) AS links, COALESCE(sum(c.clicks), 0) AS counted
         FROM (${mine}) m LEFT JOIN link_counters c ON c.link_id = m.link_id`,
      params,
    );
    return {
      links: Number(rows[0].links),
      counted: Number(rows[0].counted),
      ...(await historyFacts(client, mine, params)),
    };
  } finally {
    client.release(true);
  }
}

function importsScenario(source: SourceSetup): Scenario {
  return {
    env: SERVICE_ENV,
    async run(context) {
      const { options, service, scratch, apiKey } = context;
      const worker = new Service({
        databaseUrl: context.database.url,
        port: await freePort(),
        apiKey,
        logFile: join(scratch, 'import-worker.log'),
        cpuProfileDir: options.cpuProfileDir === null ? null : join(options.cpuProfileDir, 'import-worker'),
        visitorRateLimitPerMinute: 0,
        redis: null,
      });
      const { totals } = source;
      const spec = {
        paths: context.plainAliases.map((alias) => `/${alias}`),
        headers: { 'User-Agent': BROWSER_UA },
        connections: options.connections,
      };
      const ids = await linkIds(context, context.plainAliases);
      const before = {
        recorded: await recordedClicks(context, ids),
        counted: await countedClicks(context, ids),
      };
      const tally = new Tally();
      const problems: string[] = [];
      const redirectProblems: string[] = [];

      await source.service.start();
      let calm: Comparison;
      let underImport: Comparison;
      let job: ImportAnswer;
      let wallSeconds: number;
      let overlap: string;
      let cpu: string;
      let sourceExit: number | null;
      let workerExit: number | null;
      try {
        await worker.start(WORKER_ENV);
        // The redirect without the import: the baseline, then the service, as the plain row measures them.
        calm = await compare(context, spec, tally);

        const poll = async (id: number) =>
          (await api<{ data: ImportAnswer }>(service.origin, apiKey, { path: `/api/v1/imports/${id}` })).data;
        const ended = (answer: ImportAnswer) => answer.status !== 'queued' && answer.status !== 'running';
        const cpuBefore = cpuNow(service, worker, source.service);
        const started = performance.now();
        job = (
          await api<{ data: ImportAnswer }>(service.origin, apiKey, {
            method: 'POST',
            path: '/api/v1/imports',
            body: { source: 'phpshort', url: source.service.origin, api_key: source.apiKey },
          })
        ).data;
        // The redirect while the import writes its pages: timed from its first page on.
        const pollMs = options.quick ? POLL_MS.quick : POLL_MS.full;
        while (!ended(job) && job.progress.links_done === 0) {
          await sleep(POLL_MS.quick / 4);
          job = await poll(job.id);
        }
        // Both sides of the ratio under the same import: the baseline, then the service, as the plain row runs them.
        const loadStarted = performance.now();
        underImport = await compare(context, spec, tally);
        job = await poll(job.id);
        const loadEnded = performance.now();
        overlap = ended(job)
          ? `the import ended during the load, ${((loadEnded - loadStarted) / 1000).toFixed(1)} s after it began`
          : `the import ran throughout, from ${((loadStarted - started) / 1000).toFixed(1)} s`;
        if (ended(job) && !options.quick) redirectProblems.push(overlap);
        while (!ended(job)) {
          if (performance.now() - started > IMPORT_TIMEOUT_MS) {
            await api(service.origin, apiKey, { method: 'DELETE', path: `/api/v1/imports/${job.id}` });
            throw new Error(
              `The import did not end in ${IMPORT_TIMEOUT_MS / 1000} s: ${JSON.stringify(job)}`,
            );
          }
          await sleep(pollMs);
          job = await poll(job.id);
        }
        wallSeconds = (performance.now() - started) / 1000;
        cpu = cpuText(cpuBefore, cpuNow(service, worker, source.service));
      } finally {
        workerExit = await worker.stop();
        sourceExit = await source.service.stop();
      }

      const { progress } = job;
      if (job.status !== 'done') problems.push(`the import ended ${job.status}`);
      for (const [name, value, expected] of [
        ['links_total', progress.links_total, totals.links],
        ['links_done', progress.links_done, totals.links],
        ['links_created', progress.links_created, totals.links],
        ['links_failed', progress.links_failed, 0],
        ['links_skipped', progress.links_skipped, 0],
        ['clicks_imported', progress.clicks_imported, totals.clicks],
      ] as const) {
        if (value !== expected) problems.push(`${name} ${String(value)}, not ${grouped(expected)}`);
      }
      if (job.errors.length > 0) problems.push(`errors: ${JSON.stringify(job.errors.slice(0, 3))}`);
      const held = await importedFacts(context, source.service.origin);
      if (held.links !== totals.links) problems.push(`${grouped(held.links)} links recorded as imported`);
      for (const [name, value] of [
        ['counters', held.counted],
        ['hours', held.hourClicks],
        ...held.dimensionClicks.map((sum, index) => [`dimension ${index + 1}`, sum] as const),
      ] as const) {
        if (value !== totals.clicks) problems.push(`${name} add up to ${grouped(value)}`);
      }
      if (held.hourRows !== totals.hourRows || held.hoursHash !== totals.hoursHash) {
        problems.push(`hour rows (${grouped(held.hourRows)}) differ from the source's`);
      }
      if (held.dayRows !== totals.dayRows || held.daysHash !== totals.daysHash) {
        problems.push(`day rows (${grouped(held.dayRows)}) differ from the source's`);
      }
      if (sourceExit !== 0) problems.push(`the source exited ${String(sourceExit)} on SIGTERM`);
      if (workerExit !== 0) problems.push(`the import worker exited ${String(workerExit)} on SIGTERM`);
      // The service under the import against the baseline measured before it: what the machine's share costs.
      const againstCalm =
        calm.baseline === null
          ? ''
          : `; ${(underImport.service.rps / calm.baseline.rps).toFixed(2)} of the baseline measured before the import` +
            `; the baseline's p99 under the import ${underImport.baseline?.p99Ms ?? '?'} ms`;
      const facts =
        `${job.status} in ${wallSeconds.toFixed(1)} s: ${grouped(totals.links / wallSeconds)} links/s, ` +
        `${grouped(totals.clickDays / wallSeconds)} click-days/s; created ${grouped(progress.links_created)}, ` +
        `clicks ${grouped(progress.clicks_imported)} = counters = hours = each dimension; ` +
        `${grouped(held.hourRows)} hour and ${grouped(held.dayRows)} day rows = the source's; ` +
        `CPU s: ${cpu} (the redirect load's ${options.duration} s included)`;
      const limit = ISSUE_SECONDS * Math.max(totals.links / ISSUE_LINKS, totals.clickDays / ISSUE_CLICK_DAYS);

      return async (exitCode) => {
        const recorded = (await recordedClicks(context, ids)) - before.recorded;
        const counted = (await countedClicks(context, ids)) - before.counted;
        redirectProblems.push(...clickProblems(tally, recorded, counted, exitCode));
        if (tally.others.size > 0) redirectProblems.push(`answers other than 3xx: ${tally.othersText()}`);
        if (tally.redirects === 0) redirectProblems.push('no redirect answered');
        if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
        const rows: Row[] = [
          {
            scenario: `import phpShort (${grouped(totals.links)} links, ${grouped(totals.clickDays)} click-days)`,
            rps: totals.links / wallSeconds,
            target: options.quick ? '' : `≤${Math.round(limit)} s`,
            met: options.quick ? null : wallSeconds <= limit,
            ...verdict(problems, facts),
          },
          {
            ...timedRow('redirect plain, no import', calm, REDIRECT_TARGETS),
            ...verdict([], `${grouped(context.plainAliases.length)} plain links`),
          },
          {
            ...timedRow('redirect plain while importing', underImport, importingTargets(underImport)),
            ...verdict(
              [...new Set(redirectProblems)],
              `${clickFacts(tally, recorded)}; ${overlap}${againstCalm}`,
            ),
          },
        ];
        return rows;
      };
    },
  };
}
