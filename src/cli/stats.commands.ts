import { ClickStore } from '../clicks/click-store.repository';
import { defineCommand } from './command-line';
import { StatsWorkModule } from './command-context';
import { accountIdOf, linkId, optional } from './options';
import { CommandFailedError, printResult } from './output';

export const statsRebuild = defineCommand({
  name: 'stats:rebuild',
  description: 'recompute the stats rollups from the raw clicks still held (of one link, or of all)',
  options: {
    link: { value: 'ID', description: "the link's id; every link when absent", parse: linkId },
  },
  async run(options, context) {
    const given = optional('--link', options.link);
    // An id past PostgreSQL's integers names no link.
    const id = given === undefined ? null : accountIdOf(given);
    if (given !== undefined && id === null) throw new CommandFailedError(`No link with id ${given}`);
    const rebuilt = await context.run(StatsWorkModule.forCommand(), (app) => app.get(ClickStore).rebuild(id));
    if (id !== null && rebuilt.links === 0) throw new CommandFailedError(`No link with id ${given}`);
    printResult({ links: rebuilt.links, clicks: rebuilt.clicks });
  },
});
