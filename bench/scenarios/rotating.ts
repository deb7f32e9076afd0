import { BROWSER_UA, countedClicks, recordedClicks, type BenchContext, type Scenario } from '../context';
import { burst, send } from '../http';
import { grouped } from '../report';
import { clickFacts, clickProblems, compare, Tally, timedRow, verdict, type Comparison } from './common';

/** Visits one after another, whose targets must follow the round-robin order exactly. */
const SEQUENTIAL_VISITS = 7;

/** The link's clicks per destination as its stats count them (`name=target`, from the rollups), by URL. */
async function perTarget(context: BenchContext, linkId: number): Promise<Map<string, number>> {
  const { rows } = await context.database.db.query<{ target: string; clicks: string }>(
    `SELECT v.value AS target, sum(d.clicks) AS clicks
       FROM click_days d JOIN click_values v ON v.id = d.value
      WHERE d.link_id = $1 AND d.dimension = 9
      GROUP BY v.value`,
    [linkId],
  );
  return new Map(rows.map((row) => [row.target, Number(row.clicks)]));
}

/**
 * A rotating link: a sequential visitor sees its targets in exact round-robin order, and under load every target
 * is served as often as the others, give or take one (and the requests that were in flight when the load stopped).
 */
export const rotatingRedirects: Scenario = {
  async run(context) {
    const { options, service, fixtures } = context;
    const link = fixtures.rotating;
    const targets = link.targets;
    const ids = [link.id];
    const before = {
      recorded: await recordedClicks(context, ids),
      counted: await countedClicks(context, ids),
      perTarget: await perTarget(context, link.id),
    };
    const tally = new Tally(targets);
    const headers = { 'User-Agent': BROWSER_UA };
    const problems: string[] = [];

    const order: number[] = [];
    for (let visit = 0; visit < SEQUENTIAL_VISITS; visit += 1) {
      const answer = await send(service.origin, { path: `/${link.alias}`, headers });
      tally.addAnswer(answer);
      order.push(targets.indexOf(answer.headers.location ?? ''));
    }
    const inOrder = order.every(
      (target, index) => target !== -1 && (index === 0 || target === (order[index - 1] + 1) % targets.length),
    );
    if (!inOrder) problems.push(`sequential order ${order.map((target) => target + 1).join('→')}`);

    let comparison: Comparison | null = null;
    if (options.quick) {
      tally.addBurst(
        await burst(service.origin, 300, options.connections, () => ({ path: `/${link.alias}`, headers })),
      );
    } else {
      const spec = {
        paths: [`/${link.alias}`],
        headers,
        connections: options.connections,
        locations: targets,
      };
      comparison = await compare(context, spec, tally);
    }
    return async (exitCode) => {
      const recorded = (await recordedClicks(context, ids)) - before.recorded;
      const counted = (await countedClicks(context, ids)) - before.counted;
      problems.push(...clickProblems(tally, recorded, counted, exitCode));
      if (tally.others.size > 0) problems.push(`answers other than 3xx: ${tally.othersText()}`);
      const located = tally.byLocation.reduce((sum, count) => sum + count, 0);
      if (located !== tally.redirects) {
        problems.push(`${grouped(tally.redirects - located)} redirects to none of the targets`);
      }
      // The stats count each click under the target its visit was sent to: every one seen, and no more than were
      // recorded (answers unseen, in flight when the load stopped, were counted too).
      const after = await perTarget(context, link.id);
      const stated = targets.map((target) => (after.get(target) ?? 0) - (before.perTarget.get(target) ?? 0));
      const statedTotal = stated.reduce((sum, count) => sum + count, 0);
      if (statedTotal !== recorded || stated.some((count, index) => count < tally.byLocation[index])) {
        problems.push(`stats per target ${stated.map(grouped).join('/')} for ${grouped(recorded)} clicks`);
      }
      // Served in strict turn, each target got ⌊n/k⌋ or ⌈n/k⌉ of the n recorded; answers unseen may be missing.
      const most = Math.ceil(recorded / targets.length);
      const spread = Math.max(...tally.byLocation) - Math.min(...tally.byLocation);
      if (tally.byLocation.some((count) => count > most) || spread > 1 + (recorded - tally.redirects)) {
        problems.push(`uneven rotation`);
      }
      const facts = `order ${order.map((target) => target + 1).join('')}, per target ${tally.byLocation
        .map(grouped)
        .join('/')} (stats ${stated.map(grouped).join('/')}), ${clickFacts(tally, recorded)}`;
      return [
        { ...timedRow('redirect rotating', comparison, { minRatio: 0.15 }), ...verdict(problems, facts) },
      ];
    };
  },
};
