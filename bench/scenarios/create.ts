import { insertInBulk, insertOneByOne, type BareLink, type BareRun } from '../bare-pg-links';
import type { BenchContext, Scenario } from '../context';
import { measureCpu, type CpuPerRequest } from '../cpu';
import { burst, countOf, quantile, send, type BurstResult } from '../http';
import { grouped, type Row } from '../report';
import { verdict } from './common';

/** Issue 22's measure of creates at 16 connections before the write path was reworked (240 to 410 a second). */
const CREATES_BEFORE = 240;
/** Creates must reach this many times that, or this share of bare `pg` in the same run, whichever is lower. */
const CREATE_SPEEDUP = 5;
const CREATE_MIN_RATIO = 0.5;
/** The most one bulk create of the full size may take (it took 3.5 s). */
const BULK_MAX_MS = 500;
/** Links of one bulk create: the contract's most; a tenth of it in quick mode. */
const BULK_SIZE = 1000;
const QUICK_BULK_SIZE = 100;

/**
 * Creates before the timed ones, of the service and of bare `pg` alike (none in quick mode, or with --warmup=0): a
 * service that has just started runs its first thousand creates at about half speed, before the JIT has compiled
 * their path.
 */
function warmUpCreates(context: BenchContext): number {
  const { options } = context;
  return options.quick || options.warmup === 0 ? 0 : Math.min(1000, Math.ceil(options.creates / 5));
}

/** A link of the write scenarios: a title of its own, so that no fetch of the destination's page follows. */
function benchLink(kind: string, index: number): BareLink {
  return { url: `https://example.com/${kind}/${index}`, title: `Bench ${kind} ${index}` };
}

async function countLinks(context: BenchContext): Promise<number> {
  const { rows } = await context.database.db.query<{ count: string }>(
    'SELECT count(*) AS count FROM links WHERE account_id = $1',
    [context.fixtures.accountId],
  );
  return Number(rows[0].count);
}

/** Links per second of a run of inserts or requests. */
function perSecond(links: number, seconds: number): number {
  return seconds === 0 ? 0 : links / seconds;
}

/**
 * Links made through the API by 16 clients at once, and bulk creates of 1,000 links one after another, each
 * beside bare `pg` inserting the same rows into the same schema in the same run: links per second, the ratio, and
 * each link stored. Quick mode: the service alone, a few creates and two small bulks, counted.
 */
export const createLinks: Scenario = {
  async run(context) {
    const { options } = context;
    const target = { accountId: context.fixtures.accountId, domainId: context.fixtures.systemDomainId };

    // The baseline first, as in the redirect rows; its rows stay, as a service's would.
    const oneByOne = (count: number, offset: number) =>
      insertOneByOne(
        context.database.url,
        target,
        (index) => benchLink('bare', offset + index),
        count,
        options.createConnections,
      );
    if (!options.quick) await oneByOne(warmUpCreates(context), options.creates);
    // The harness is bare pg's client, as the service is the API's.
    const bareCpu = measureCpu(process.pid);
    const one = options.quick ? null : await oneByOne(options.creates, 0);
    const bare =
      one === null
        ? null
        : {
            one: { ...one, cpu: bareCpu(one.inserted) },
            bulk: await insertInBulk(
              context.database.url,
              target,
              (index) => benchLink('bare-bulk', index),
              BULK_SIZE,
              options.bulks,
            ),
          };

    const singles = await createOneByOne(context);
    const bulks = await createInBulk(context, options.quick ? QUICK_BULK_SIZE : BULK_SIZE);
    return async (exitCode) => {
      const stored = (await countLinks(context)) - singles.before;
      return [
        singlesRow(context, singles, bare?.one ?? null, stored - bulks.created, exitCode),
        bulksRow(context, bulks, bare?.bulk ?? null, exitCode),
      ];
    };
  },
};

interface Singles {
  before: number;
  /** Creates of the warm-up that succeeded. */
  warmedUp: number;
  result: BurstResult;
  created: number;
  cpu: CpuPerRequest;
}

async function createOneByOne(context: BenchContext): Promise<Singles> {
  const { options, service, apiKey } = context;
  const before = await countLinks(context);
  const creates = (count: number, offset: number) =>
    burst(service.origin, count, options.createConnections, (index) => ({
      method: 'POST',
      path: '/api/v1/links',
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      body: benchLink('new', offset + index),
    }));
  const warmUp = warmUpCreates(context);
  const warmedUp = warmUp === 0 ? 0 : countOf((await creates(warmUp, options.creates)).statuses, 200, 299);
  const cpu = measureCpu(service.pid);
  const result = await creates(options.creates, 0);
  const created = countOf(result.statuses, 200, 299);
  return { before, warmedUp, result, created, cpu: cpu(created) };
}

function singlesRow(
  context: BenchContext,
  singles: Singles,
  bare: (BareRun & { cpu: CpuPerRequest }) | null,
  stored: number,
  exitCode: number | null,
): Row {
  const { options } = context;
  const { result, created, warmedUp } = singles;
  const problems: string[] = [];
  if (created !== options.creates) {
    const others = [...result.statuses].filter(([status]) => status < 200 || status > 299);
    problems.push(
      `${grouped(options.creates - created)} not created (${others.map(([status, n]) => `${n}×${status}`).join(' ')}${
        result.firstFailure === null ? '' : ` ${result.firstFailure}`
      })`,
    );
  }
  if (stored !== warmedUp + created) problems.push(`${grouped(stored)} stored`);
  if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
  const rps = perSecond(created, result.seconds);
  const timing: Pick<Row, 'baselineRps' | 'target' | 'met' | 'cpu'> = { target: '', met: null };
  if (bare !== null) {
    const baselineRps = perSecond(bare.inserted, bare.seconds);
    const needed = Math.min(CREATES_BEFORE * CREATE_SPEEDUP, CREATE_MIN_RATIO * baselineRps);
    timing.baselineRps = baselineRps;
    timing.target = `≥${grouped(needed)}/s: min(${CREATE_SPEEDUP}×${CREATES_BEFORE}, ratio ${CREATE_MIN_RATIO.toFixed(2)})`;
    timing.met = rps >= needed;
    timing.cpu = { service: singles.cpu, baseline: bare.cpu };
  }
  return {
    scenario: `create (${options.createConnections} connections)`,
    rps,
    p50Ms: quantile(result.latenciesMs, 0.5),
    p95Ms: quantile(result.latenciesMs, 0.95),
    p99Ms: quantile(result.latenciesMs, 0.99),
    ...timing,
    ...verdict(
      problems,
      `${grouped(created)} created${warmedUp === 0 ? '' : ` after ${grouped(warmedUp)} to warm up`}, ${grouped(stored)} stored`,
    ),
  };
}

interface Bulks {
  size: number;
  before: number;
  latenciesMs: number[];
  created: number;
  stored: number;
  problems: string[];
}

/** Bulk creates one after another, each answer checked: every link, in the order sent. */
async function createInBulk(context: BenchContext, size: number): Promise<Bulks> {
  const { options, service, apiKey } = context;
  const before = await countLinks(context);
  const bulks: Bulks = { size, before, latenciesMs: [], created: 0, stored: 0, problems: [] };
  for (let time = 0; time < options.bulks; time += 1) {
    const links = Array.from({ length: size }, (_, index) => benchLink('bulk', time * size + index));
    const answer = await send(service.origin, {
      method: 'POST',
      path: '/api/v1/links/bulk',
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      body: { links },
    });
    if (answer.status !== 201) {
      bulks.problems.push(`bulk ${time + 1} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      continue;
    }
    bulks.latenciesMs.push(answer.ms);
    const data = (JSON.parse(answer.body) as { data: { id: number; url: string }[] }).data;
    const inOrder = data.length === size && data.every((link, index) => link.url === links[index].url);
    if (!inOrder)
      bulks.problems.push(`bulk ${time + 1} answered ${data.length} links, not those sent in order`);
    if (new Set(data.map((link) => link.id)).size !== data.length) {
      bulks.problems.push(`bulk ${time + 1} answered the same id twice`);
    }
    bulks.created += data.length;
  }
  bulks.stored = (await countLinks(context)) - before;
  if (bulks.stored !== bulks.created) bulks.problems.push(`${grouped(bulks.stored)} stored`);
  return bulks;
}

function bulksRow(context: BenchContext, bulks: Bulks, bare: BareRun | null, exitCode: number | null): Row {
  const { options } = context;
  const problems = [...bulks.problems];
  if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
  const seconds = bulks.latenciesMs.reduce((sum, ms) => sum + ms, 0) / 1000;
  const p95Ms = quantile(bulks.latenciesMs, 0.95);
  const timing: Pick<Row, 'baselineRps' | 'target' | 'met'> = { target: '', met: null };
  if (bare !== null) {
    timing.baselineRps = perSecond(bare.inserted, bare.seconds);
    timing.target = `p95≤${BULK_MAX_MS}`;
    timing.met = bulks.latenciesMs.length === options.bulks && p95Ms <= BULK_MAX_MS;
  }
  const bareText =
    bare === null
      ? ''
      : `; bare pg p50 ${quantile(bare.latenciesMs, 0.5).toFixed(0)} ms, p95 ${quantile(bare.latenciesMs, 0.95).toFixed(0)} ms`;
  return {
    scenario: `bulk create (${grouped(bulks.size)} links, ${options.bulks}×)`,
    rps: perSecond(bulks.created, seconds),
    p50Ms: quantile(bulks.latenciesMs, 0.5),
    p95Ms,
    ...timing,
    ...verdict(
      problems,
      `${grouped(bulks.created)} created in order, ${grouped(bulks.stored)} stored${bareText}`,
    ),
  };
}
