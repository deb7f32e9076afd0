import { performance } from 'node:perf_hooks';
import type { BenchContext, Scenario } from '../context';
import { send, quantile, type Answer } from '../http';
import { grouped, type Row } from '../report';
import { clicksOf } from '../seed';
import { verdict } from './common';

const PER_PAGE = 100;
const PAGES = [1, 100] as const;

/** One way to ask for an account's links, with the SQL that counts what it must find. */
interface ListCase {
  name: string;
  params: Record<string, string>;
  /** A condition over `l`, the account's links; `$2` is `arg` when there is one. */
  where: string;
  arg?: string | number;
  maxP95Ms: number;
}

/** Every documented filter, sort and search of `GET /api/v1/links` (see the list parameters in docs/API.md). */
function listCases(context: BenchContext): ListCase[] {
  const { fixtures, schema } = context;
  const expired = `((l.active_period_start_at IS NOT NULL AND now() < l.active_period_start_at)
    OR (l.active_period_end_at IS NOT NULL AND now() >= l.active_period_end_at)
    OR (l.clicks_limit IS NOT NULL AND l.clicks_limit > 0 AND ${clicksOf(schema)} >= l.clicks_limit))`;
  const search = (by: string, term: string, maxP95Ms = 100): ListCase => ({
    name: `search_by=${by} "${term}"`,
    params: { search: term, search_by: by },
    where: `l.${by} ILIKE $2`,
    arg: `%${term}%`,
    maxP95Ms,
  });
  const cases: ListCase[] = [
    { name: 'no filter', params: {}, where: 'true', maxP95Ms: 100 },
    search('title', 'tag042-'),
    search('alias', 'b-4242'),
    search('url', '/p/777'),
    // Two words, as a user types a title: 11,111 links, bunched in id ranges as a campaign's links are.
    search('title', 'link 42'),
    // The term of every link: the whole account matches.
    search('title', 'bench', 400),
    { name: 'status=0', params: { status: '0' }, where: 'true', maxP95Ms: 100 },
    { name: 'status=1', params: { status: '1' }, where: `NOT l.disabled AND NOT ${expired}`, maxP95Ms: 100 },
    { name: 'status=2', params: { status: '2' }, where: `NOT l.disabled AND ${expired}`, maxP95Ms: 100 },
    { name: 'status=3', params: { status: '3' }, where: 'l.disabled', maxP95Ms: 100 },
    {
      name: 'space_id=<space>',
      params: { space_id: String(fixtures.spaceIds[0]) },
      where: 'l.space_id = $2',
      arg: fixtures.spaceIds[0],
      maxP95Ms: 100,
    },
    { name: 'space_id=0', params: { space_id: '0' }, where: 'l.space_id IS NULL', maxP95Ms: 100 },
    {
      name: 'domain_id=<custom>',
      params: { domain_id: String(fixtures.customDomainId) },
      where: 'l.domain_id = $2',
      arg: fixtures.customDomainId,
      maxP95Ms: 100,
    },
    {
      name: 'pixel_id=<pixel>',
      params: { pixel_id: String(fixtures.pixelId) },
      where: 'EXISTS (SELECT 1 FROM link_pixels p WHERE p.link_id = l.id AND p.pixel_id = $2)',
      arg: fixtures.pixelId,
      maxP95Ms: 100,
    },
  ];
  for (const sortBy of ['id', 'clicks', 'title', 'alias', 'url']) {
    for (const sort of ['desc', 'asc']) {
      cases.push({
        name: `sort_by=${sortBy} ${sort}`,
        params: { sort_by: sortBy, sort },
        where: 'true',
        maxP95Ms: 100,
      });
    }
  }
  return cases;
}

async function seqScansOfLinks(context: BenchContext): Promise<number> {
  const { rows } = await context.database.db.query<{ seq_scan: string }>(
    "SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'links' AND schemaname = current_schema()",
  );
  return Number(rows[0]?.seq_scan ?? 0);
}

/** Sequential scans of `links` by a service that starts and stops with nothing asked of it. */
async function idleSessionScans(context: BenchContext): Promise<number> {
  const before = await seqScansOfLinks(context);
  await context.service.start();
  await context.service.stop();
  await context.database.waitForOthersToLeave();
  return (await seqScansOfLinks(context)) - before;
}

interface PageRun {
  page: number;
  latenciesMs: number[];
  problems: string[];
}

/** One page: a first call that is checked and not timed, then calls up to the count or the time budget. */
async function runPage(
  context: BenchContext,
  listCase: ListCase,
  expected: number,
  page: number,
): Promise<PageRun> {
  const { options, service, apiKey } = context;
  const query = new URLSearchParams({ ...listCase.params, per_page: String(PER_PAGE), page: String(page) });
  const call = { path: `/api/v1/links?${query.toString()}`, headers: { Authorization: `Bearer ${apiKey}` } };
  const items = Math.max(0, Math.min(PER_PAGE, expected - (page - 1) * PER_PAGE));
  const problems = new Set<string>();
  const check = (answer: Answer) => {
    if (answer.status !== 200) {
      problems.add(`answered ${answer.status}`);
      return;
    }
    const body = JSON.parse(answer.body) as { data: unknown[]; meta: { total: number } };
    if (body.meta.total !== expected) problems.add(`meta.total ${body.meta.total}`);
    if (body.data.length !== items) problems.add(`${body.data.length} items for ${items}`);
  };
  check(await send(service.origin, call));
  const latenciesMs: number[] = [];
  const deadline = performance.now() + options.listSeconds * 1000;
  while (
    latenciesMs.length < options.listCalls &&
    (latenciesMs.length === 0 || performance.now() < deadline)
  ) {
    const answer = await send(service.origin, call);
    latenciesMs.push(answer.ms);
    check(answer);
  }
  return { page, latenciesMs, problems: [...problems] };
}

function listScenario(listCase: ListCase, expected: number, idleScans: number | null): Scenario {
  return {
    async run(context) {
      const scansBefore = idleScans === null ? 0 : await seqScansOfLinks(context);
      const runs: PageRun[] = [];
      for (const page of PAGES) runs.push(await runPage(context, listCase, expected, page));
      return async (exitCode) => {
        let scans = '';
        if (idleScans !== null) {
          // Backends report their statistics as they exit: read them once the stopped service's have gone.
          await context.database.waitForOthersToLeave();
          const count = (await seqScansOfLinks(context)) - scansBefore - idleScans;
          scans = `, seq scans of links ${count} in ${runs.reduce((sum, run) => sum + run.latenciesMs.length + 1, 0)} calls of both pages`;
        }
        return runs.map((run): Row => {
          const p95Ms = quantile(run.latenciesMs, 0.95);
          const problems = [...run.problems];
          if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
          return {
            scenario: `list ${listCase.name} p${run.page}`,
            p50Ms: quantile(run.latenciesMs, 0.5),
            p95Ms,
            p99Ms: quantile(run.latenciesMs, 0.99),
            target: context.options.quick ? '' : `p95≤${listCase.maxP95Ms}`,
            met: context.options.quick ? null : p95Ms <= listCase.maxP95Ms,
            ...verdict(problems, `total ${grouped(expected)}, ${run.latenciesMs.length} calls${scans}`),
          };
        });
      };
    },
  };
}

/**
 * The list scenario, one unit per case so that a full run can give each its own service process: the sequential
 * scans a case causes are then read exactly, from the statistics its backends report as they exit. Expected
 * totals are counted first, and the harness's own connections closed, so that none of its scans are counted.
 */
export async function listScenarios(
  context: BenchContext,
): Promise<{ idleScans: number | null; units: { name: string; scenario: Scenario }[] }> {
  const cases = listCases(context);
  const expected: number[] = [];
  for (const listCase of cases) {
    const { rows } = await context.database.db.query<{ count: string }>(
      `SELECT count(*) AS count FROM links l WHERE l.account_id = $1 AND ${listCase.where}`,
      listCase.arg === undefined ? [context.fixtures.accountId] : [context.fixtures.accountId, listCase.arg],
    );
    expected.push(Number(rows[0].count));
  }
  await context.database.closeConnections();
  const idleScans = context.options.quick ? null : await idleSessionScans(context);
  const units = cases.map((listCase, index) => ({
    name: `list ${listCase.name}`,
    scenario: listScenario(listCase, expected[index], idleScans),
  }));
  return { idleScans, units };
}
