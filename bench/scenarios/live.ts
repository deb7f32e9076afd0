import {
  BROWSER_UA,
  countedClicks,
  linkIds,
  recordedClicks,
  type BenchContext,
  type Scenario,
} from '../context';
import { EventStreamTap } from '../event-taps';
import { burst } from '../http';
import { runLoad, type LoadResult } from '../load';
import { grouped, type Row } from '../report';
import {
  clickFacts,
  clicksSettled,
  clickProblems,
  compare,
  poll,
  Tally,
  timedRow,
  verdict,
  type Comparison,
} from './common';

/** Dashboards with the event stream open on the account whose links are visited, as the issue measures it. */
const STREAMS = 5;
const QUICK_REQUESTS = 400;
/** The longest the clicks of a run may take to be written, then to reach every stream. */
const SETTLE_TIMEOUT_MS = 60_000;

/** The clicks of `ids` written since `since`, once no more are coming (at least `answered` of them). */
function settled(context: BenchContext, ids: number[], since: number, answered: number): Promise<number> {
  return clicksSettled(context, ids, since, answered, SETTLE_TIMEOUT_MS, 300);
}

/**
 * No stream of the account holds its events any more, and every instance is told: the scenarios after this one
 * (in the same service, in a quick run) visit links of the same account and must not write events for an hour.
 */
async function forgetStreams(context: BenchContext): Promise<void> {
  await context.database.db.query('DELETE FROM event_streams WHERE account_id = $1', [
    context.fixtures.accountId,
  ]);
  await context.database.db.query(`SELECT pg_notify('visit_cache', 'event_streams')`);
}

/**
 * The plain redirect with five event streams open on the account whose links are visited, so that every click
 * batch writes a `link.clicked` event that each stream gets: its cost against the baseline, and, measured just
 * before in the same process, against the same links with no stream ever opened. Every recorded click must reach
 * each stream exactly once.
 */
export const liveRedirects: Scenario = {
  async run(context) {
    const { options, service, apiKey } = context;
    const headers = { 'User-Agent': BROWSER_UA };
    const ids = await linkIds(context, context.liveAliases);
    const paths = context.liveAliases.map((alias) => `/${alias}`);
    const spec = { paths, headers, connections: options.connections };

    let plain: LoadResult | null = null;
    const plainTally = new Tally();
    const start = await recordedClicks(context, ids);
    if (!options.quick) {
      // Without streams first: their events must not be written while this runs.
      const run = (seconds: number) =>
        runLoad(options.load, { ...spec, origin: service.origin, seconds }, context.scratch);
      if (options.warmup > 0) plainTally.addLoad(await run(options.warmup), options.connections);
      plain = await run(options.duration);
      plainTally.addLoad(plain, options.connections);
    }
    const before = start + (await settled(context, ids, start, plainTally.redirects));
    const counterBefore = await countedClicks(context, ids);

    const taps = await Promise.all(
      Array.from({ length: STREAMS }, () => EventStreamTap.open(service.origin, apiKey, new Set(ids))),
    );
    const tally = new Tally();
    let comparison: Comparison | null = null;
    let streamed: number;
    try {
      if (options.quick) {
        tally.addBurst(
          await burst(service.origin, QUICK_REQUESTS, options.connections, (index) => ({
            path: paths[index % paths.length],
            headers,
          })),
        );
      } else {
        comparison = await compare(context, spec, tally);
      }
      streamed = await settled(context, ids, before, tally.redirects);
      await poll(
        'every click on every stream',
        () => taps.every((tap) => tap.clicks >= streamed || tap.ended),
        SETTLE_TIMEOUT_MS,
        200,
      );
    } finally {
      for (const tap of taps) tap.close();
      await forgetStreams(context);
    }

    return async (exitCode): Promise<Row[]> => {
      const recorded = (await recordedClicks(context, ids)) - before;
      const counted = (await countedClicks(context, ids)) - counterBefore;
      const problems = clickProblems(tally, recorded, counted, exitCode);
      if (tally.others.size > 0) problems.push(`answers other than 3xx: ${tally.othersText()}`);
      taps.forEach((tap, index) => {
        if (tap.clicks !== streamed)
          problems.push(`stream ${index + 1}: ${grouped(tap.clicks)} clicks of ${grouped(streamed)}`);
        if (tap.duplicates > 0) problems.push(`stream ${index + 1}: ${grouped(tap.duplicates)} events twice`);
      });
      const share = comparison === null || plain === null ? null : comparison.service.rps / plain.rps;
      const events = taps.map((tap) => tap.events);
      const facts = [
        clickFacts(tally, recorded),
        `each of ${STREAMS} streams ${grouped(taps[0].clicks)} clicks in ${Math.min(...events)}-${Math.max(...events)} events`,
        ...(share === null || plain === null
          ? []
          : [
              `${share.toFixed(2)} of the same links' ${grouped(plain.rps)} req/s with no stream, just before`,
            ]),
      ];
      return [
        {
          ...timedRow(`redirect plain, ${STREAMS} event streams open`, comparison, {
            minRatio: 0.5,
            maxP99Ms: 10,
          }),
          ...verdict(problems, facts.join('; ')),
        },
      ];
    };
  },
};
