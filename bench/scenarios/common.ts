import { setTimeout as sleep } from 'node:timers/promises';
import { recordedClicks, type BenchContext } from '../context';
import { type Answer, type BurstResult } from '../http';
import { measureCpu, type CpuPerRequest } from '../cpu';
import { runLoad, type LoadResult, type LoadSpec } from '../load';
import { grouped, type Row } from '../report';

/**
 * Every answer the service gave in a scenario, warm-up included, to hold against what it recorded: redirects,
 * other statuses, answers per Location, and how many requests may have reached it unseen (in flight when a
 * timed run stopped, or lost to a connection error).
 */
export class Tally {
  redirects = 0;
  readonly others = new Map<string, number>();
  unseen = 0;
  readonly byLocation: number[];

  constructor(readonly locations: readonly string[] = []) {
    this.byLocation = locations.map(() => 0);
  }

  addAnswer(answer: Answer): void {
    this.count(answer.status, 1);
    this.locate(answer.headers.location, 1);
  }

  addBurst(result: BurstResult): void {
    for (const [status, count] of result.statuses) this.count(status, count);
    for (const [location, count] of result.locations) this.locate(location, count);
    // A request that failed may still have been served.
    this.unseen += result.failures;
  }

  addLoad(result: LoadResult, connections: number): void {
    const [c1, c2, c3, c4, c5] = result.byClass;
    this.redirects += c3;
    for (const [name, count] of [
      ['1xx', c1],
      ['2xx', c2],
      ['4xx', c4],
      ['5xx', c5],
    ] as const) {
      if (count > 0) this.others.set(name, (this.others.get(name) ?? 0) + count);
    }
    result.byLocation.forEach((count, index) => (this.byLocation[index] += count));
    this.unseen += connections + result.errors;
  }

  othersText(): string {
    return [...this.others].map(([status, count]) => `${grouped(count)}×${status}`).join(' ');
  }

  private count(status: number, count: number): void {
    if (status >= 300 && status <= 399) this.redirects += count;
    else this.others.set(String(status), (this.others.get(String(status)) ?? 0) + count);
  }

  private locate(location: string | undefined, count: number): void {
    const index = location === undefined ? -1 : this.locations.indexOf(location);
    if (index !== -1) this.byLocation[index] += count;
  }
}

export interface Comparison {
  service: LoadResult;
  baseline: LoadResult | null;
  /** CPU per request of each timed run. */
  serviceCpu: CpuPerRequest;
  baselineCpu: CpuPerRequest | null;
}

/**
 * The same timed load against the baseline, then against the service, each after a warm-up of its own; in quick
 * mode the service alone, without warm-up. `around` wraps the service's runs, warm-up included (other work that
 * runs meanwhile).
 */
export async function compare(
  context: BenchContext,
  spec: Omit<LoadSpec, 'origin' | 'seconds'>,
  tally: Tally,
  around: <T>(runs: () => Promise<T>) => Promise<T> = (runs) => runs(),
): Promise<Comparison> {
  const { options, baseline, service, scratch } = context;
  const run = (origin: string, seconds: number) =>
    runLoad(options.load, { ...spec, origin, seconds }, scratch);
  const measured = async (origin: string, pid: number | undefined) => {
    const cpu = measureCpu(pid);
    const result = await run(origin, options.duration);
    return { result, cpu: cpu(result.answers) };
  };
  let baselineRun: { result: LoadResult; cpu: CpuPerRequest } | null = null;
  if (baseline !== null) {
    if (options.warmup > 0) await run(baseline.origin, options.warmup);
    baselineRun = await measured(baseline.origin, baseline.pid);
  }
  const serviceRun = await around(async () => {
    if (baseline !== null && options.warmup > 0) {
      tally.addLoad(await run(service.origin, options.warmup), spec.connections);
    }
    return measured(service.origin, service.pid);
  });
  tally.addLoad(serviceRun.result, spec.connections);
  return {
    service: serviceRun.result,
    baseline: baselineRun?.result ?? null,
    serviceCpu: serviceRun.cpu,
    baselineCpu: baselineRun?.cpu ?? null,
  };
}

/** A timed run of the service alone, without warm-up, counted in the tally: a burst that meets it as it was left. */
export async function serviceBurst(
  context: BenchContext,
  spec: Omit<LoadSpec, 'origin' | 'seconds'>,
  tally: Tally,
): Promise<{ result: LoadResult; cpu: CpuPerRequest }> {
  const { options, service, scratch } = context;
  const cpu = measureCpu(service.pid);
  const result = await runLoad(
    options.load,
    { ...spec, origin: service.origin, seconds: options.duration },
    scratch,
  );
  tally.addLoad(result, spec.connections);
  return { result, cpu: cpu(result.answers) };
}

/** Bursts after a quiet spell hold this share of the warm run's throughput at least. */
export const BURST_MIN_THROUGHPUT = 0.8;
/** Bursts after a quiet spell keep their p99 within this many times the warm run's. */
export const BURST_MAX_P99 = 2;

/**
 * The row of a burst after `quietSeconds` without traffic, judged against the warm run of the same load in the
 * same process: its req/s over the warm run's is the ratio column (the warm run's req/s stands as the baseline),
 * and its p99 over the warm run's is in the check.
 */
export function burstRow(
  quietSeconds: number,
  burst: { result: LoadResult; cpu: CpuPerRequest },
  warm: LoadResult,
  judged: boolean,
): Row {
  const { result } = burst;
  const throughput = result.rps / warm.rps;
  const p99 = result.p99Ms / warm.p99Ms;
  const others = result.answers - result.byClass[2];
  return {
    scenario: `redirect plain after ${quietSeconds} s quiet`,
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    baselineRps: warm.rps,
    target: judged ? `ratio≥${BURST_MIN_THROUGHPUT.toFixed(2)}, p99≤${BURST_MAX_P99}×warm` : '',
    met: judged ? throughput >= BURST_MIN_THROUGHPUT && p99 <= BURST_MAX_P99 : null,
    correct: null,
    check:
      `p99 ${p99.toFixed(2)}× warm (${warm.p99Ms.toFixed(1)} ms), max ${result.maxMs.toFixed(0)} ms ` +
      `(warm ${warm.maxMs.toFixed(0)})${others === 0 ? '' : `, ${grouped(others)} not 3xx`}; clicks in the plain row`,
    cpu: { service: burst.cpu, baseline: null },
  };
}

/** A row's timing columns and verdict from a comparison: at least `minRatio` of the baseline, and a p99 bound. */
export function timedRow(
  scenario: string,
  comparison: Comparison | null,
  targets: { minRatio?: number; maxP99Ms?: number },
): Pick<Row, 'scenario' | 'rps' | 'p50Ms' | 'p99Ms' | 'baselineRps' | 'target' | 'met' | 'cpu'> {
  if (comparison === null) return { scenario, target: '', met: null };
  const { service, baseline } = comparison;
  const parts: string[] = [];
  let met: boolean | null = null;
  if (baseline !== null) {
    met = true;
    if (targets.minRatio !== undefined) {
      parts.push(`ratio≥${targets.minRatio.toFixed(2)}`);
      met &&= service.rps / baseline.rps >= targets.minRatio;
    }
    if (targets.maxP99Ms !== undefined) {
      parts.push(`p99≤${targets.maxP99Ms}`);
      met &&= service.p99Ms <= targets.maxP99Ms;
    }
  }
  return {
    scenario,
    rps: service.rps,
    p50Ms: service.p50Ms,
    p99Ms: service.p99Ms,
    baselineRps: baseline?.rps,
    target: parts.join(', '),
    met: parts.length === 0 ? null : met,
    cpu: { service: comparison.serviceCpu, baseline: comparison.baselineCpu },
  };
}

/** Problems found by a check, joined; an empty list means it held. */
export function verdict(problems: readonly string[], facts: string): Pick<Row, 'correct' | 'check'> {
  return {
    correct: problems.length === 0,
    check: problems.length === 0 ? facts : `${problems.join('; ')} (${facts})`,
  };
}

/**
 * Clicks answered versus recorded: every redirect answered is recorded, and at most the requests the tally could
 * not see are recorded beyond them; the counters agree with the recorded rows.
 */
export function clickProblems(
  tally: Tally,
  recorded: number,
  counted: number,
  exitCode: number | null,
): string[] {
  const problems: string[] = [];
  if (recorded < tally.redirects)
    problems.push(`${grouped(tally.redirects - recorded)} redirects not recorded`);
  if (recorded > tally.redirects + tally.unseen) {
    problems.push(
      `${grouped(recorded - tally.redirects)} more recorded than answered (in flight ≤ ${tally.unseen})`,
    );
  }
  if (counted !== recorded) problems.push(`counters say ${grouped(counted)}`);
  if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
  return problems;
}

export function clickFacts(tally: Tally, recorded: number): string {
  const other = tally.othersText();
  return `3xx ${grouped(tally.redirects)}, recorded ${grouped(recorded)}${other === '' ? '' : `, other ${other}`}`;
}

/** Waits until `done`, asking again every `everyMs`; past `timeoutMs`, fails naming `what`. */
export async function poll(
  what: string,
  done: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

/**
 * The clicks of `ids` recorded since `since` (a count of {@link recordedClicks}), once at least `answered` are and
 * two readings `everyMs` apart agree: none is still coming.
 */
export async function clicksSettled(
  context: BenchContext,
  ids: number[],
  since: number,
  answered: number,
  timeoutMs: number,
  everyMs: number,
): Promise<number> {
  let recorded = -1;
  await poll(
    'the clicks written',
    async () => {
      const now = (await recordedClicks(context, ids)) - since;
      const stable = now === recorded && now >= answered;
      recorded = now;
      return stable;
    },
    timeoutMs,
    everyMs,
  );
  return recorded;
}
