import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchContext, Scenario } from './context';
import { BenchDatabase } from './database';
import { makeFixtures } from './fixtures';
import { missingForLayouts, PgBouncer, ReplicaPair } from './layouts';
import { parseOptions, UsageError, type BenchOptions, type LayoutName, type ScenarioName } from './options';
import { Baseline, buildService, freePort, killAll, Service } from './processes';
import { formatTable, grouped, MEMORY_LIMIT_MB, type Row } from './report';
import { createLinks } from './scenarios/create';
import { eventsScenario, eventStreams } from './scenarios/events';
import { importsWorkload } from './scenarios/imports';
import { healthChecks } from './scenarios/health';
import { limitedRedirects } from './scenarios/limited';
import { liveRedirects } from './scenarios/live';
import { qrPressure } from './scenarios/qr-pressure';
import { listScenarios } from './scenarios/lists';
import { pressureRedirects } from './scenarios/pressure';
import { botRedirects, plainRedirects, targetedRedirects } from './scenarios/redirects';
import { rotatingRedirects } from './scenarios/rotating';
import { statsWorkload } from './scenarios/stats';
import { utmRedirects, withUtm } from './scenarios/utm';
import { isPlainSeed, readSchema, seedAlias, seedLinks, seedUrl } from './seed';

/**
 * The scenarios that run on the links seeded first; the list, stats and imports scenarios seed their own data after
 * them.
 */
const SCENARIOS: Record<
  Exclude<ScenarioName, 'lists' | 'stats' | 'events' | 'imports' | 'health'>,
  Scenario
> = {
  plain: plainRedirects,
  bot: botRedirects,
  targeted: targetedRedirects,
  limited: limitedRedirects,
  rotating: rotatingRedirects,
  'qr-pressure': qrPressure,
  utm: utmRedirects,
  live: liveRedirects,
  pressure: pressureRedirects,
  create: createLinks,
};

/** Aliases of each of the plain, bot, pressure, UTM and live scenarios, as in the measurements. */
const ALIASES_PER_SCENARIO = 2000;

const LEGEND = [
  'ratio: req/s of the service over req/s of the bare node:http baseline, measured in the same run, same load.',
  '"after N s quiet": the plain load again after N s without traffic, in the same process; its baseline is the',
  'plain row (the warm run), so its ratio is req/s over the warm req/s, and its check gives p99 over the warm p99.',
  'The create rows count links, not requests: req/s is links per second, and the baseline is bare pg inserting',
  'the same rows into the same schema (indexes and triggers) in the same run; bulk p50/p95 are per request.',
  'RSS: peak resident memory of the service process in that scenario. p95 of a list row: its sequential calls.',
  'CPU µs/request: of the service process (node), of every PostgreSQL process (pg) and of the whole machine (all,',
  'the load generator included) per answer of the timed run; base: the baseline process and the machine in its',
  'run. Unlike req/s, these hardly move with what else the machine does.',
  'check: 3xx answered versus click rows recorded, counted after the service stopped on SIGTERM; recorded may',
  'exceed answered by the requests in flight when the load stopped. Seq scans: of links, by that row alone.',
  "stats rows: p50/p95/p99 of the slowest of a name's 6 questions at the big link (whole life, 7 days, one day;",
  'each with and without search), sequential calls; growth: that p95 over the slowest p95 of the same name at the',
  'link of a tenth of the clicks, met under 2× or at p95 ≤ 5 ms, where noise dominates. stats page rows: the slower',
  'of the HTML and the JSON answer.',
  'events rows: a webhook on link.clicked and the Redis and RabbitMQ streams on, each counted by event id at a',
  'receiver in the bench, and in a queue bound to the exchange and the stream, both read after the timed run (no',
  'consumer of the bench competes with the service while it is timed): every recorded click must reach each exactly',
  'once; after a kill -9 with webhook deliveries in flight, at least once (what came twice is counted).',
  "redirect with UTM: plain links with three UTM parameters (contract §13), each added to the target's own query;",
  "its req/s must also be within 10% of the plain links' measured right after it (the share in its check).",
  "redirect plain, 5 event streams open: plain links of their own visited while five clients hold the API's event",
  'stream (contract §14) open on their account, so that every click batch writes a link.clicked event each stream',
  "gets; its check holds every recorded click at each stream exactly once, and the share of the same links' req/s",
  'with no stream ever opened, measured just before in the same process.',
  'import rows: a phpShort import (contract §12) from a second instance on a database of its own on the same server,',
  "its links and rollups seeded in SQL; req/s is links per second from POST to done, the target the issue's 180 s",
  'for 100,000 links with 1,000,000 click-days (the same rate at other sizes); its CPU: seconds of each process over',
  'the import, the redirect load timed meanwhile included. The service runs no import (IMPORT_RUNNER=false); a second',
  'instance on its database, which no visitor reaches, runs it. "redirect plain, no import" and "while importing":',
  'the plain load (baseline, then service) before the import, and again from its first page written.',
  'redirect during health checks: --health-links links (contract §13) on 1,000 loopback hosts, checked against a site',
  'in the bench, all due at once after the plain load was timed with none due; its share of that idle req/s is in',
  'its check, with the checks a second and the most requests one host had in one second (at most 1).',
].join('\n');

/**
 * The visitor limit of a run with Redis: on, so that every visit pays for its check in Redis, at a rate no run
 * reaches, so that every visit is still answered. Without Redis it stays off: the memory storage keeps a timestamp
 * per hit, which a limit this high would turn into the bench's bottleneck.
 */
const UNREACHED_VISITOR_LIMIT = 1_000_000_000;

/** REDIS_URL as the bench was given it, with a key prefix of the run's own (its keys expire within a minute). */
function limitsRedis(): { url: string; keyPrefix: string } | null {
  const url = process.env.REDIS_URL?.trim();
  if (url === undefined || url === '') return null;
  return { url, keyPrefix: `shortlink-bench-${Date.now()}:` };
}

function say(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** A fixed shuffle, so that runs visit the same links. */
function shuffled<T>(items: T[]): T[] {
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

interface Unit {
  name: string;
  scenario: Scenario;
}

/** The servers of the run's own beyond the bench's database server: what the layouts other than direct need. */
interface Held {
  pair: ReplicaPair | null;
  bouncer: PgBouncer | null;
}

/** One way the service reaches PostgreSQL, with a service process of its own configured for it. */
interface Layout {
  name: LayoutName;
  service: Service;
  /** Before each start: a replica is given time to replay the seed, so that the service reads it. */
  prepare?: () => Promise<void>;
  /** After each stop: what the rows of the session add to their check. */
  observe?: () => Promise<string>;
}

/** Scans the replica counts in the bench's database once the stopped service's backends there have reported them. */
async function settledReplicaScans(pair: ReplicaPair, database: string): Promise<number> {
  let last = await pair.replicaScans(database);
  for (let tries = 0; tries < 15; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await pair.replicaScans(database);
    if (now === last) return now;
    last = now;
  }
  return last;
}

/**
 * Runs units with the service started before and stopped (SIGTERM) after: in a full run one process per unit,
 * so that each row has its own peak memory and clean counts; in a quick run one process for all but the scenarios
 * with settings of their own (`env`), which get one each. Each session runs in every layout in turn, so that the
 * layouts' rows of a unit are measured minutes apart at most; a layout other than direct names its rows.
 */
async function runSessions(
  base: BenchContext,
  layouts: readonly Layout[],
  units: Unit[],
  rows: Row[],
): Promise<void> {
  const alone = (unit: Unit) => !base.options.quick || unit.scenario.env !== undefined;
  const sessions = [units.filter((unit) => !alone(unit)), ...units.filter(alone).map((unit) => [unit])];
  for (const session of sessions) {
    if (session.length === 0) continue;
    for (const layout of layouts) {
      const context: BenchContext = { ...base, service: layout.service };
      const suffix = layout.name === 'direct' ? '' : ` (${layout.name})`;
      await layout.prepare?.();
      await context.service.start(session[0].scenario.env);
      const verdicts = [];
      for (const unit of session) {
        say(`${unit.name}${suffix}...`);
        verdicts.push(await unit.scenario.run(context));
      }
      const peak = context.service.peakMemoryMb;
      const exitCode = await context.service.stop();
      const observed = (await layout.observe?.()) ?? '';
      for (const verdict of verdicts) {
        for (const row of await verdict(exitCode)) {
          row.scenario += suffix;
          row.check += observed;
          row.peakMemoryMb = peak;
          if (!context.options.quick && peak !== null) {
            row.target = [row.target, `RSS<${MEMORY_LIMIT_MB}`].filter((part) => part !== '').join(', ');
            row.met = (row.met ?? true) && peak < MEMORY_LIMIT_MB;
          }
          rows.push(row);
        }
      }
    }
  }
}

/** The layouts of the run, each with a service of its own beside the direct one; PgBouncer is started here. */
async function makeLayouts(
  options: BenchOptions,
  database: BenchDatabase,
  scratch: string,
  held: Held,
  direct: Service,
  serviceFor: (name: LayoutName, databaseUrl: string, env: Record<string, string>) => Service,
): Promise<Layout[]> {
  const layouts: Layout[] = [];
  for (const name of options.layouts) {
    if (name === 'direct') {
      layouts.push({ name, service: direct });
    } else if (name === 'pgbouncer') {
      held.bouncer = await PgBouncer.start(database.url, join(scratch, 'pgbouncer.log'));
      say(`PgBouncer 127.0.0.1:${held.bouncer.port} (transaction mode) in front of the database server`);
      // LISTEN and the migrations' advisory lock need a session: that connection goes to PostgreSQL directly.
      const service = serviceFor(name, held.bouncer.url(database.url), {
        DATABASE_SESSION_URL: database.url,
      });
      layouts.push({ name, service });
    } else {
      const pair = held.pair;
      if (pair === null) throw new Error('The replica layout runs on a primary and replica of its own');
      const replicaUrl = pair.replicaUrl(database.name);
      const service = serviceFor(name, database.url, { DATABASE_REPLICA_URL: replicaUrl });
      let scansBefore = 0;
      layouts.push({
        name,
        service,
        prepare: async () => {
          await pair.caughtUp();
          scansBefore = await pair.replicaScans(database.name);
        },
        observe: async () =>
          `; table scans on the replica ${grouped((await settledReplicaScans(pair, database.name)) - scansBefore)}`,
      });
    }
  }
  return layouts;
}

async function bench(
  options: BenchOptions,
  database: BenchDatabase,
  scratch: string,
  rows: Row[],
  held: Held,
): Promise<void> {
  const notes: string[] = [];
  say(`load generator: ${options.load}; scenarios: ${options.scenarios.join(', ')}`);
  await buildService();
  await database.create();
  say(`database ${database.name}`);
  const apiKey = `bench_${randomBytes(24).toString('base64url')}`;
  const redis = limitsRedis();
  notes.push(
    redis === null
      ? 'Limits in memory; the visitor limit off.'
      : `Limits in Redis (REDIS_URL), keys under ${redis.keyPrefix}; the visitor limit on, at ` +
          `${grouped(UNREACHED_VISITOR_LIMIT)} a minute per address: every visit is counted there.`,
  );
  say(notes[notes.length - 1]);
  // One port for every layout's service, never two at once: the load's Host is the system domain, made of APP_URL
  // at the first start.
  const port = await freePort();
  const serviceFor = (name: LayoutName, databaseUrl: string, env: Record<string, string> = {}) =>
    new Service({
      databaseUrl,
      port,
      apiKey,
      logFile: join(scratch, name === 'direct' ? 'service.log' : `service-${name}.log`),
      cpuProfileDir: options.cpuProfileDir,
      visitorRateLimitPerMinute: redis === null ? 0 : UNREACHED_VISITOR_LIMIT,
      redis,
      env,
    });
  const service = serviceFor('direct', database.url);

  // The first start migrates the database and makes the account of the key; the API makes the rest.
  let started = performance.now();
  await service.start();
  say(`service ready in ${seconds(started)}`);
  const fixtures = await makeFixtures(service.origin, apiKey, database.db, options.quick ? 100 : 20_000);
  await service.stop();
  const schema = await readSchema(database.db);

  started = performance.now();
  await seedLinks(database.db, schema, fixtures, 1, options.redirectLinks);
  notes.push(`Seeded ${grouped(options.redirectLinks)} links in ${seconds(started)}.`);
  say(notes[notes.length - 1]);

  const candidates = shuffled(
    Array.from({ length: options.redirectLinks }, (_, index) => index + 1).filter(isPlainSeed),
  );
  const perScenario = Math.min(ALIASES_PER_SCENARIO, Math.floor(candidates.length / 5));
  const plain = candidates.slice(0, perScenario);
  const bot = candidates.slice(perScenario, 2 * perScenario);
  const pressure = candidates.slice(2 * perScenario, 3 * perScenario);
  const utm = candidates.slice(3 * perScenario, 4 * perScenario);
  const live = candidates.slice(4 * perScenario, 5 * perScenario);
  await withUtm(database.db, utm.map(seedAlias));

  let baseline: Baseline | null = null;
  const redirects = options.scenarios.some(
    (name) => name !== 'lists' && name !== 'stats' && name !== 'create',
  );
  if (!options.quick && redirects) {
    baseline = new Baseline();
    const special = [fixtures.country, fixtures.device, fixtures.limited, fixtures.rotating];
    await baseline.start([
      ...[...plain, ...bot, ...pressure, ...utm, ...live].map((n) => [seedAlias(n), seedUrl(n)] as const),
      ...special.map((link) => [link.alias, link.url] as const),
    ]);
  }
  const context: BenchContext = {
    options,
    database,
    schema,
    apiKey,
    scratch,
    service,
    baseline,
    fixtures,
    plainAliases: plain.map(seedAlias),
    botAliases: bot.map(seedAlias),
    pressureAliases: pressure.map(seedAlias),
    utmAliases: utm.map(seedAlias),
    liveAliases: live.map(seedAlias),
  };
  const layouts = await makeLayouts(options, database, scratch, held, service, serviceFor);
  const sessions = (units: Unit[]) => runSessions(context, layouts, units, rows);

  try {
    const units: Unit[] = [];
    for (const name of options.scenarios) {
      if (name === 'lists' || name === 'stats' || name === 'imports' || name === 'health') continue;
      if (name !== 'events') {
        units.push({ name, scenario: SCENARIOS[name] });
        continue;
      }
      const streams = await eventStreams();
      for (const stream of [streams.redis, streams.amqp])
        if ('off' in stream) notes.push(`Events: ${stream.off}.`);
      units.push({ name, scenario: eventsScenario(streams) });
    }
    await sessions(units);

    if (options.scenarios.includes('lists')) {
      const { rows: counted } = await database.db.query<{ count: string }>(
        'SELECT count(*) AS count FROM links WHERE account_id = $1',
        [fixtures.accountId],
      );
      const missing = options.listLinks - Number(counted[0].count);
      started = performance.now();
      await seedLinks(
        database.db,
        schema,
        fixtures,
        options.redirectLinks + 1,
        options.redirectLinks + missing,
      );
      notes.push(
        `Seeded ${grouped(Math.max(0, missing))} more links in ${seconds(started)}, ` +
          `for ${grouped(options.listLinks)} in the account.`,
      );
      say(notes[notes.length - 1]);
      const lists = await listScenarios(context);
      if (lists.idleScans !== null) {
        notes.push(
          `A service that starts and stops scans links ${lists.idleScans} times: not counted in the list rows.`,
        );
      }
      await sessions(lists.units);
    }

    if (options.scenarios.includes('stats')) {
      started = performance.now();
      const stats = await statsWorkload(context);
      notes.push(...stats.notes);
      say(`stats workload ready in ${seconds(started)}`);
      await sessions([stats.unit]);
    }

    if (options.scenarios.includes('imports')) {
      started = performance.now();
      const imports = await importsWorkload(context);
      notes.push(...imports.notes);
      say(`imports source ready in ${seconds(started)}`);
      await sessions([imports.unit]);
    }

    // Last: its links join the account's, which the list rows count.
    if (options.scenarios.includes('health')) {
      await sessions([{ name: 'health', scenario: healthChecks }]);
    }
  } finally {
    await baseline?.stop();
  }
  for (const note of notes) process.stdout.write(`${note}\n`);
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  // Output piped into a reader that goes away (| head) must not stop the run before it cleans up.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const missing = missingForLayouts(options.layouts);
  if (missing !== null) {
    process.stderr.write(`${missing}\n`);
    return 2;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'shortlink-bench-'));
  const held: Held = {
    pair: options.layouts.includes('replica') ? await ReplicaPair.create() : null,
    bouncer: null,
  };
  // With a replica, the pair's primary is the database server of every layout: the same data on the same server.
  const database = new BenchDatabase(held.pair?.primaryUrl() ?? options.databaseUrl);
  let cleaned = false;
  let interrupted = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    killAll();
    await database.drop().catch((error: unknown) => say(`could not drop ${database.name}: ${String(error)}`));
    await held.bouncer?.stop().catch((error: unknown) => say(`could not stop PgBouncer: ${String(error)}`));
    await held.pair
      ?.stop()
      .catch((error: unknown) => say(`could not stop the replica pair: ${String(error)}`));
  };
  // Ctrl-C reaches the bench twice (from the terminal and relayed by the TypeScript runner): the first one counts.
  const interrupt = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    say(`${signal}: stopping`);
    void cleanUp().finally(() => {
      rmSync(scratch, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  const started = performance.now();
  const rows: Row[] = [];
  try {
    if (held.pair !== null) {
      say("starting a primary and a streaming replica of the run's own (initdb, pg_basebackup)");
      await held.pair.start();
    }
    await bench(options, database, scratch, rows, held);
  } catch (error) {
    // Interrupted: the children were stopped under the run's feet; the signal handler exits.
    if (interrupted) return new Promise<number>(() => undefined);
    say(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    say(`the service's log is kept in ${scratch}`);
    await cleanUp();
    if (rows.length > 0)
      process.stdout.write(`\nWhat was measured before the failure:\n\n${formatTable(rows)}\n`);
    return 1;
  }
  await cleanUp();

  process.stdout.write(`\n${formatTable(rows)}\n\n${LEGEND}\n\n`);
  const judged = rows.filter((row) => row.correct !== null);
  const failed = judged.filter((row) => row.correct === false).length;
  // A failed check is explained by the services' (and PgBouncer's) logs: they stay.
  if (failed > 0) say(`the logs are kept in ${scratch}`);
  else rmSync(scratch, { recursive: true, force: true });
  const timed = rows.filter((row) => row.met !== null);
  const missed = timed.filter((row) => row.met === false).length;
  if (options.quick) {
    process.stdout.write(`bench quick: ${judged.length - failed} passed, ${failed} failed\n`);
  } else {
    process.stdout.write(
      `bench (${options.load}, ${options.duration} s per run, ${seconds(started)} in all): ` +
        `checks ${judged.length - failed} held, ${failed} failed; targets ${timed.length - missed} met, ${missed} missed\n`,
    );
  }
  return failed > 0 || (options.strict && missed > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    killAll();
    process.exit(1);
  },
);
