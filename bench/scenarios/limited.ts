import { BROWSER_UA, countedClicks, recordedClicks, type Scenario } from '../context';
import { burst } from '../http';
import { grouped } from '../report';
import { clickFacts, clickProblems, compare, Tally, timedRow, verdict, type Comparison } from './common';

/**
 * Many visitors at once on a link with a clicks limit: no more redirects than the limit, ever, and each one
 * recorded; once it is reached, visitors get the expired page (410). In quick mode the burst is three times the
 * limit, so the limit must be reached exactly.
 */
export const limitedRedirects: Scenario = {
  async run(context) {
    const { options, service, fixtures } = context;
    const link = fixtures.limited;
    const ids = [link.id];
    const before = {
      recorded: await recordedClicks(context, ids),
      counted: await countedClicks(context, ids),
    };
    const tally = new Tally();
    const headers = { 'User-Agent': BROWSER_UA };
    const paths = [`/${link.alias}`];
    let comparison: Comparison | null = null;
    if (options.quick) {
      tally.addBurst(
        await burst(service.origin, link.limit * 3, options.connections, () => ({ path: paths[0], headers })),
      );
    } else {
      comparison = await compare(context, { paths, headers, connections: options.connections }, tally);
    }
    return async (exitCode) => {
      const recorded = (await recordedClicks(context, ids)) - before.recorded;
      const counted = (await countedClicks(context, ids)) - before.counted;
      const problems = clickProblems(tally, recorded, counted, exitCode);
      if (tally.redirects > link.limit) problems.push(`${grouped(tally.redirects)} redirects past the limit`);
      if (recorded > link.limit) problems.push(`${grouped(recorded)} clicks recorded past the limit`);
      const unexpected = [...tally.others.keys()].filter((status) => status !== '410' && status !== '4xx');
      if (unexpected.length > 0) problems.push(`answers other than 3xx or 410: ${tally.othersText()}`);
      if (options.quick && tally.redirects !== link.limit) {
        problems.push(`${grouped(tally.redirects)} redirects for ${grouped(link.limit * 3)} visits`);
      }
      return [
        {
          ...timedRow('redirect limited', comparison, { minRatio: 0.15 }),
          ...verdict(problems, `limit ${grouped(link.limit)}, ${clickFacts(tally, recorded)}`),
        },
      ];
    };
  },
};
