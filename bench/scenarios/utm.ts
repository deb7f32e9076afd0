import type { Pool } from 'pg';
import { BROWSER_UA, countedClicks, linkIds, recordedClicks, type Scenario } from '../context';
import { burst, send } from '../http';
import { runLoad } from '../load';
import { grouped, type Row } from '../report';
import { clickFacts, clickProblems, compare, Tally, timedRow, verdict, type Comparison } from './common';

/** What the UTM links carry (contract §13): three of the five parameters, one of them already in the target. */
const UTM = { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring sale' };
const UTM_QUERY = 'utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale';
/** The target: a link with UTM parameters within 10% of one without. */
const MIN_SHARE_OF_PLAIN = 0.9;
const QUICK_REQUESTS = 200;

/** Gives the seeded links UTM parameters, before the service reads any of them. */
export async function withUtm(db: Pool, aliases: string[]): Promise<void> {
  if (aliases.length === 0) return;
  await db.query(
    `UPDATE links SET utm_source = $2, utm_medium = $3, utm_campaign = $4 WHERE alias = ANY($1::text[])`,
    [aliases, UTM.utm_source, UTM.utm_medium, UTM.utm_campaign],
  );
}

/**
 * Visits by a browser to links with UTM parameters, each added to the target's own query: every redirect must
 * carry them and be counted. Timed against the baseline, and, right after, the same load on plain links without
 * them, so that what the parameters cost is their req/s over the plain links' in the same minute.
 */
export const utmRedirects: Scenario = {
  async run(context) {
    const { options, service } = context;
    const ids = await linkIds(context, context.utmAliases);
    const before = {
      recorded: await recordedClicks(context, ids),
      counted: await countedClicks(context, ids),
    };
    const tally = new Tally();
    const headers = { 'User-Agent': BROWSER_UA };
    const paths = context.utmAliases.map((alias) => `/${alias}`);
    const problems: string[] = [];
    // Each seeded target has a query of its own (`?c=N`): the parameters follow it.
    const first = await send(service.origin, { path: paths[0], headers });
    tally.addAnswer(first);
    const location = String(first.headers.location);
    if (!location.endsWith(`&${UTM_QUERY}`))
      problems.push(`${paths[0]} sent to ${location}, without its UTM`);

    let comparison: Comparison | null = null;
    let plainRps: number | null = null;
    if (options.quick) {
      tally.addBurst(
        await burst(service.origin, QUICK_REQUESTS, options.connections, (index) => ({
          path: paths[index % paths.length],
          headers,
        })),
      );
    } else {
      comparison = await compare(context, { paths, headers, connections: options.connections }, tally);
      // Plain links, right after: not counted in this row's clicks, which are the UTM links' alone.
      const plain = await runLoad(
        options.load,
        {
          origin: service.origin,
          paths: context.plainAliases.map((alias) => `/${alias}`),
          headers,
          connections: options.connections,
          seconds: options.duration,
        },
        context.scratch,
      );
      plainRps = plain.rps;
    }
    return async (exitCode): Promise<Row[]> => {
      const recorded = (await recordedClicks(context, ids)) - before.recorded;
      const counted = (await countedClicks(context, ids)) - before.counted;
      problems.push(...clickProblems(tally, recorded, counted, exitCode));
      if (tally.others.size > 0) problems.push(`answers other than 3xx: ${tally.othersText()}`);
      const share = comparison === null || plainRps === null ? null : comparison.service.rps / plainRps;
      const facts =
        share === null
          ? clickFacts(tally, recorded)
          : `${clickFacts(tally, recorded)}; ${share.toFixed(2)} of plain links' ${grouped(plainRps ?? 0)} req/s ` +
            `just after (target ≥${MIN_SHARE_OF_PLAIN})`;
      const timed = timedRow('redirect with UTM', comparison, { minRatio: 0.5, maxP99Ms: 10 });
      // A timing target beside the baseline's: the share of the plain links' rate.
      if (share !== null) {
        timed.target = `${timed.target}, ≥${MIN_SHARE_OF_PLAIN}× plain`;
        timed.met = timed.met === true && share >= MIN_SHARE_OF_PLAIN;
      }
      return [{ ...timed, ...verdict(problems, facts) }];
    };
  },
};
