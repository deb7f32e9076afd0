import { Command, CommandRunner, Option } from 'nest-commander';
import { ClickStore } from '../clicks/click-store.repository';
import { CommandContext, StatsWorkModule } from './command-context';
import { accountIdOf, linkId, optional, type Given } from './options';
import { CommandFailedError, printResult } from './output';

@Command({
  name: 'stats:rebuild',
  description: 'recompute the stats rollups from the raw clicks still held (of one link, or of all)',
})
export class StatsRebuildCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  @Option({ flags: '--link [ID]', description: "the link's id; every link when absent" })
  parseLink(value: string): string {
    return linkId(value);
  }

  async run(_params: string[], options: { link?: Given<string> }): Promise<void> {
    const given = optional('--link', options.link);
    // An id past PostgreSQL's integers names no link.
    const id = given === undefined ? null : accountIdOf(given);
    if (given !== undefined && id === null) throw new CommandFailedError(`No link with id ${given}`);
    const rebuilt = await this.context.run(StatsWorkModule, (app) => app.get(ClickStore).rebuild(id));
    if (id !== null && rebuilt.links === 0) throw new CommandFailedError(`No link with id ${given}`);
    printResult({ links: rebuilt.links, clicks: rebuilt.clicks });
  }
}
