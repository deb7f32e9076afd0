import type { Scenario } from '../context';
import { burst, countOf, quantile } from '../http';
import { grouped } from '../report';
import { verdict } from './common';

/** Links made through the API by a few clients at once: links per second, and each one stored. */
export const createLinks: Scenario = {
  async run(context) {
    const { options, service, fixtures, apiKey } = context;
    const countLinks = async () => {
      const { rows } = await context.database.db.query<{ count: string }>(
        'SELECT count(*) AS count FROM links WHERE account_id = $1',
        [fixtures.accountId],
      );
      return Number(rows[0].count);
    };
    const before = await countLinks();
    const result = await burst(service.origin, options.creates, options.createConnections, (index) => ({
      method: 'POST',
      path: '/api/v1/links',
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      // A title of its own: no fetch of the destination's page in the background.
      body: { url: `https://example.com/new/${index}`, title: `Bench created ${index}` },
    }));
    const created = countOf(result.statuses, 200, 299);
    return async (exitCode) => {
      const stored = (await countLinks()) - before;
      const problems: string[] = [];
      if (created !== options.creates) {
        const others = [...result.statuses].filter(([status]) => status < 200 || status > 299);
        problems.push(
          `${grouped(options.creates - created)} not created (${others.map(([status, n]) => `${n}×${status}`).join(' ')}${
            result.firstFailure === null ? '' : ` ${result.firstFailure}`
          })`,
        );
      }
      if (stored !== created) problems.push(`${grouped(stored)} stored`);
      if (exitCode !== 0) problems.push(`the service exited ${String(exitCode)} on SIGTERM`);
      return [
        {
          scenario: `create (${options.createConnections} connections)`,
          rps: created / result.seconds,
          p50Ms: quantile(result.latenciesMs, 0.5),
          p95Ms: quantile(result.latenciesMs, 0.95),
          p99Ms: quantile(result.latenciesMs, 0.99),
          target: '',
          met: null,
          ...verdict(problems, `${grouped(created)} created, ${grouped(stored)} stored`),
        },
      ];
    };
  },
};
