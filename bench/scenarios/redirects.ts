import {
  BOT_UA,
  BROWSER_UA,
  GERMAN_ADDRESS,
  MOBILE_UA,
  countedClicks,
  linkIds,
  recordedClicks,
  type BenchContext,
  type Scenario,
} from '../context';
import { burst, send } from '../http';
import { grouped } from '../report';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Row } from '../report';
import {
  burstRow,
  clickFacts,
  clickProblems,
  compare,
  serviceBurst,
  Tally,
  timedRow,
  verdict,
  type Comparison,
} from './common';

/** Requests of a quick burst: every one answered, so that clicks must equal redirects exactly. */
const QUICK_REQUESTS = 400;

async function clicksBefore(context: BenchContext, ids: number[]) {
  return { recorded: await recordedClicks(context, ids), counted: await countedClicks(context, ids) };
}

/**
 * Visits to plain links by a browser: each redirect answered must be recorded as one click. The quick mode adds a
 * burst whose every answer is awaited, where the two must be equal with nothing in flight. After the warm run, the
 * same load comes again after each quiet spell (`--quiet`), as visitors come to a link shared somewhere: each burst
 * is a row against the warm run, and its clicks are counted with the rest.
 */
export const plainRedirects: Scenario = {
  async run(context) {
    const { options, service } = context;
    const headers = { 'User-Agent': BROWSER_UA };
    // Quick: the burst gets links of its own, so that its exact count is judged apart from the timed run's.
    const half = Math.floor(context.plainAliases.length / 2);
    const burstAliases = options.quick ? context.plainAliases.slice(0, half) : [];
    const loadAliases = options.quick ? context.plainAliases.slice(half) : context.plainAliases;
    const burstIds = options.quick ? await linkIds(context, burstAliases) : [];
    const loadIds = await linkIds(context, loadAliases);
    const before = {
      burst: await clicksBefore(context, burstIds),
      load: await clicksBefore(context, loadIds),
    };
    const burstTally = new Tally();
    const loadTally = new Tally();
    if (options.quick) {
      const result = await burst(service.origin, QUICK_REQUESTS, options.connections, (index) => ({
        path: `/${burstAliases[index % burstAliases.length]}`,
        headers,
      }));
      burstTally.addBurst(result);
    }
    const paths = loadAliases.map((alias) => `/${alias}`);
    const spec = { paths, headers, connections: options.connections };
    const comparison = await compare(context, spec, loadTally);
    const bursts: Row[] = [];
    for (const quiet of options.quiet) {
      await sleep(quiet * 1000);
      const burst = await serviceBurst(context, spec, loadTally);
      bursts.push(burstRow(quiet, burst, comparison.service, comparison.baseline !== null));
    }
    return async (exitCode) => {
      const problems: string[] = [];
      const facts: string[] = [];
      for (const [name, tally, ids, start] of [
        ['burst', burstTally, burstIds, before.burst],
        ['load', loadTally, loadIds, before.load],
      ] as const) {
        if (ids.length === 0) continue;
        const recorded = (await recordedClicks(context, ids)) - start.recorded;
        const counted = (await countedClicks(context, ids)) - start.counted;
        const prefix = options.quick ? `${name}: ` : '';
        problems.push(
          ...clickProblems(tally, recorded, counted, exitCode).map((problem) => prefix + problem),
        );
        if (tally.others.size > 0) problems.push(`${prefix}answers other than 3xx: ${tally.othersText()}`);
        if (tally.redirects === 0) problems.push(`${prefix}no redirect answered`);
        facts.push(prefix + clickFacts(tally, recorded));
      }
      return [
        {
          ...timedRow('redirect plain', comparison, { minRatio: 0.5, maxP99Ms: 10 }),
          ...verdict([...new Set(problems)], facts.join('; ')),
        },
        ...bursts,
      ];
    };
  },
};

/** Crawlers reach the destination but are no visits: nothing may be recorded. */
export const botRedirects: Scenario = {
  async run(context) {
    const { options, service } = context;
    const ids = await linkIds(context, context.botAliases);
    const before = await clicksBefore(context, ids);
    const tally = new Tally();
    const paths = context.botAliases.map((alias) => `/${alias}`);
    const headers = { 'User-Agent': BOT_UA };
    let comparison: Comparison | null = null;
    if (options.quick) {
      tally.addBurst(
        await burst(service.origin, QUICK_REQUESTS / 2, options.connections, (index) => ({
          path: paths[index % paths.length],
          headers,
        })),
      );
    } else {
      comparison = await compare(context, { paths, headers, connections: options.connections }, tally);
    }
    return async (exitCode) => {
      const recorded = (await recordedClicks(context, ids)) - before.recorded;
      const counted = (await countedClicks(context, ids)) - before.counted;
      const problems: string[] = [];
      if (recorded !== 0) problems.push(`${grouped(recorded)} bot visits recorded`);
      if (counted !== 0) problems.push(`counters rose by ${grouped(counted)}`);
      if (tally.others.size > 0) problems.push(`answers other than 3xx: ${tally.othersText()}`);
      if (tally.redirects === 0) problems.push('no redirect answered');
      if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
      return [
        { ...timedRow('redirect bot UA', comparison, {}), ...verdict(problems, clickFacts(tally, recorded)) },
      ];
    };
  },
};

/**
 * A mobile visitor in Germany on a country-targeted and a device-targeted link, half and half: both rules must
 * pick their target, and every visit is counted. The bench is the trusted proxy that says where the visitor is.
 */
export const targetedRedirects: Scenario = {
  async run(context) {
    const { options, service, fixtures } = context;
    const links = [fixtures.country, fixtures.device];
    const ids = links.map((link) => link.id);
    const before = await clicksBefore(context, ids);
    const tally = new Tally();
    const headers = { 'User-Agent': MOBILE_UA, 'X-Forwarded-For': GERMAN_ADDRESS };
    const problems: string[] = [];
    for (const [link, expected] of [
      [fixtures.country, 'https://example.com/de'],
      [fixtures.device, 'https://example.com/mobile'],
    ] as const) {
      const answer = await send(service.origin, { path: `/${link.alias}`, headers });
      tally.addAnswer(answer);
      if (answer.headers.location !== expected) {
        problems.push(`${link.alias} sent to ${String(answer.headers.location)}, not ${expected}`);
      }
    }
    const paths = links.map((link) => `/${link.alias}`);
    let comparison: Comparison | null = null;
    if (options.quick) {
      tally.addBurst(
        await burst(service.origin, QUICK_REQUESTS / 2, options.connections, (index) => ({
          path: paths[index % 2],
          headers,
        })),
      );
    } else {
      comparison = await compare(context, { paths, headers, connections: options.connections }, tally);
    }
    return async (exitCode) => {
      const recorded = (await recordedClicks(context, ids)) - before.recorded;
      const counted = (await countedClicks(context, ids)) - before.counted;
      problems.push(...clickProblems(tally, recorded, counted, exitCode));
      if (tally.others.size > 0) problems.push(`answers other than 3xx: ${tally.othersText()}`);
      return [
        {
          ...timedRow('redirect targeted', comparison, { minRatio: 0.35 }),
          ...verdict(problems, clickFacts(tally, recorded)),
        },
      ];
    };
  },
};
