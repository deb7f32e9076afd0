import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export const SCENARIOS = [
  'plain',
  'bot',
  'targeted',
  'limited',
  'rotating',
  'qr-pressure',
  'pressure',
  'events',
  'utm',
  'live',
  'create',
  'lists',
  'stats',
  'imports',
  'health',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/**
 * How the service reaches PostgreSQL: directly; through PgBouncer in transaction mode (DATABASE_URL), its session
 * connection direct (DATABASE_SESSION_URL); or directly with a streaming replica for its reads (DATABASE_REPLICA_URL).
 */
export const LAYOUTS = ['direct', 'pgbouncer', 'replica'] as const;
export type LayoutName = (typeof LAYOUTS)[number];

export type LoadTool = 'wrk' | 'autocannon';

/** The days back from yesterday over which the imports scenario's source has its click-days. */
export const IMPORT_DAYS = 365;

export interface BenchOptions {
  /** Correctness only: a small seed, a few hundred requests per scenario, no timing judged. */
  quick: boolean;
  /** Timing misses fail the process too, not only correctness failures. */
  strict: boolean;
  scenarios: ScenarioName[];
  /** The layouts each scenario runs in, one service process each, in this order. */
  layouts: LayoutName[];
  /** Seconds of measured load per run, and of warm-up before it. */
  duration: number;
  warmup: number;
  connections: number;
  /** Seconds without traffic before each burst that follows the plain row's warm run; empty for none. */
  quiet: number[];
  load: LoadTool;
  /** Links seeded before the redirect scenarios, and the account's links for the list scenario. */
  redirectLinks: number;
  listLinks: number;
  /** Calls per list row, and the seconds a row may take at most. */
  listCalls: number;
  listSeconds: number;
  creates: number;
  createConnections: number;
  /** Clicks of the stats scenario's big link (a tenth for its twin, a fifth shared by 50 more), calls per question. */
  statsClicks: number;
  statsCalls: number;
  /** Bulk creates of the create scenario, one after another. */
  bulks: number;
  /** Links of the imports scenario's source, and their click-days (a link's day with clicks). */
  importLinks: number;
  importClickDays: number;
  /** Links of the health scenario, their targets spread over loopback hosts. */
  healthLinks: number;
  databaseUrl: string;
  /** A directory for CPU profiles of the service (node --cpu-prof), one per start; null for none. */
  cpuProfileDir: string | null;
}

const USAGE = `Usage: npm run bench -- [options]
  --quick               correctness only, in seconds (small seed, no timing judged)
  --strict              timing misses fail the process too
  --scenarios=a,b       some of: ${SCENARIOS.join(', ')} (default: all)
  --layouts=a,b         some of: ${LAYOUTS.join(', ')} (default: direct), each scenario run in each, its rows
                        named after it: PgBouncer in transaction mode in front of the database server, or a
                        primary and a streaming replica of the bench's own (initdb), the primary then the
                        database server of every layout
  --duration=S          seconds of measured load per run (default 10)
  --warmup=S            seconds of warm-up load before each run (default 2)
  --connections=N       connections of the redirect runs (default 64)
  --quiet=S,S           seconds without traffic before each burst after the plain row, each a row of its own
                        (default 20,70; quick: 1,3; --quiet=none for none)
  --load=wrk|autocannon load generator (default: wrk when on PATH, else autocannon)
  --links=N             links seeded for the redirect scenarios (default 100000)
  --list-links=N        links of the account in the list scenario (default 1000000)
  --list-calls=N        calls per list row (default 20)
  --list-seconds=S      time budget of one list row (default 10)
  --creates=N           links made one by one by the create scenario (default 10000)
  --bulks=N             bulk creates of 1,000 links by the create scenario (default 20)
  --stats-clicks=N      clicks of the stats scenario's big link (default 10000000; a tenth for the second
                        link, a fifth shared by 50 more)
  --stats-calls=N       timed calls per stats question and page (default 50)
  --import-links=N      links of the imports scenario's phpShort source, a second instance (default 100000;
                        quick: 2000)
  --import-click-days=N their click-days, each with its hours and a value per dimension (default 1000000;
                        quick: 20000)
  --health-links=N      links of the health scenario, checked in one wave (default 1000000; quick: 2000)
  --cpu-prof=DIR        write a CPU profile of the service to DIR each time it stops (node --cpu-prof)
Environment: BENCH_DATABASE_URL, a PostgreSQL server where a scratch database may be created and dropped
  (default postgres://postgres@127.0.0.1:5432/postgres).`;

export class UsageError extends Error {}

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function positive(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function cpuProfileDir(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (raw === 'true' || raw === '') throw new UsageError('--cpu-prof needs a directory: --cpu-prof=DIR');
  return resolve(raw);
}

/** The quiet spells before the bursts: whole seconds, in the order given. */
function quietSpells(raw: string | undefined, quick: boolean): number[] {
  if (raw === undefined) return quick ? [1, 3] : [20, 70];
  if (raw === 'none') return [];
  return raw.split(',').map((part) => Math.round(positive('quiet', part.trim(), 1, 3600)));
}

export function parseOptions(argv: string[]): BenchOptions {
  const values = new Map<string, string>();
  for (const argument of argv) {
    if (argument === '--help' || argument === '-h') throw new UsageError(USAGE);
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argument);
    if (match === null) throw new UsageError(`Unknown argument "${argument}"\n\n${USAGE}`);
    values.set(match[1], match[2] ?? 'true');
  }
  const known = new Set([
    'quick',
    'strict',
    'scenarios',
    'layouts',
    'duration',
    'warmup',
    'connections',
    'quiet',
    'load',
    'links',
    'list-links',
    'list-calls',
    'list-seconds',
    'creates',
    'stats-clicks',
    'stats-calls',
    'bulks',
    'import-links',
    'health-links',
    'import-click-days',
    'cpu-prof',
  ]);
  for (const name of values.keys()) {
    if (!known.has(name)) throw new UsageError(`Unknown option --${name}\n\n${USAGE}`);
  }
  const quick = values.get('quick') === 'true';
  const number = (name: string, fallback: number, quickValue: number, min: number, max: number) => {
    const raw = values.get(name);
    return raw === undefined ? (quick ? quickValue : fallback) : positive(name, raw, min, max);
  };

  const requested = values.get('scenarios');
  const scenarios =
    requested === undefined
      ? [...SCENARIOS]
      : requested.split(',').map((name) => {
          const trimmed = name.trim();
          if (!(SCENARIOS as readonly string[]).includes(trimmed)) {
            throw new UsageError(`Unknown scenario "${trimmed}"; known: ${SCENARIOS.join(', ')}`);
          }
          return trimmed as ScenarioName;
        });
  // Run in the canonical order whatever order was asked for: the list, stats and imports scenarios grow the data last.
  const ordered = SCENARIOS.filter((name) => scenarios.includes(name));

  const layouts = (values.get('layouts') ?? 'direct').split(',').map((name) => {
    const trimmed = name.trim();
    if (!(LAYOUTS as readonly string[]).includes(trimmed)) {
      throw new UsageError(`Unknown layout "${trimmed}"; known: ${LAYOUTS.join(', ')}`);
    }
    return trimmed as LayoutName;
  });

  const quiet = quietSpells(values.get('quiet'), quick);

  const load = values.get('load') ?? (onPath('wrk') ? 'wrk' : 'autocannon');
  if (load !== 'wrk' && load !== 'autocannon') throw new UsageError(`--load must be wrk or autocannon`);
  if (load === 'wrk' && !onPath('wrk')) throw new UsageError('--load=wrk, but wrk is not on PATH');

  const options: BenchOptions = {
    quick,
    strict: values.get('strict') === 'true',
    scenarios: ordered,
    layouts: LAYOUTS.filter((name) => layouts.includes(name)),
    duration: number('duration', 10, 1, 1, 600),
    warmup: number('warmup', 2, 0, 0, 600),
    connections: Math.round(number('connections', 64, 64, 1, 1000)),
    quiet,
    load,
    redirectLinks: Math.round(number('links', 100_000, 200, 100, 10_000_000)),
    listLinks: Math.round(number('list-links', 1_000_000, 300, 100, 10_000_000)),
    listCalls: Math.round(number('list-calls', 20, 1, 1, 1000)),
    listSeconds: number('list-seconds', 10, 10, 1, 3600),
    creates: Math.round(number('creates', 10_000, 50, 1, 1_000_000)),
    createConnections: 16,
    statsClicks: Math.round(number('stats-clicks', 10_000_000, 20_000, 1000, 100_000_000)),
    statsCalls: Math.round(number('stats-calls', 50, 1, 1, 1000)),
    bulks: Math.round(number('bulks', 20, 2, 1, 1000)),
    importLinks: Math.round(number('import-links', 100_000, 2000, 1, 10_000_000)),
    importClickDays: Math.round(number('import-click-days', 1_000_000, 20_000, 0, 100_000_000)),
    healthLinks: Math.round(number('health-links', 1_000_000, 2000, 1, 10_000_000)),
    databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    cpuProfileDir: cpuProfileDir(values.get('cpu-prof')),
  };
  // A link has at most one click-day on each of the 365 days it is seeded over.
  if (options.importClickDays > options.importLinks * IMPORT_DAYS) {
    throw new UsageError(`--import-click-days may be at most ${IMPORT_DAYS} per link of --import-links`);
  }
  if (options.listLinks < options.redirectLinks && ordered.includes('lists')) {
    options.listLinks = options.redirectLinks;
  }
  return options;
}
