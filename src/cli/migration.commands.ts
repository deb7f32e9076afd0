import { Command, CommandRunner } from 'nest-commander';
import { Migrations } from '../database/migrate';
import { CommandContext, MigrationsWorkModule } from './command-context';
import { printResult } from './output';

@Command({ name: 'migration:run', description: 'apply pending migrations' })
export class MigrationRunCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  async run(): Promise<void> {
    const applied = await this.context.run(MigrationsWorkModule, (app) => app.get(Migrations).run());
    printResult({ applied });
  }
}

@Command({ name: 'migration:revert', description: 'undo the last migration' })
export class MigrationRevertCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  async run(): Promise<void> {
    await this.context.run(MigrationsWorkModule, (app) => app.get(Migrations).revert());
    printResult({ reverted: true });
  }
}

@Command({ name: 'migration:show', description: 'list migrations and whether each is applied' })
export class MigrationShowCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  async run(): Promise<void> {
    const pending = await this.context.run(MigrationsWorkModule, (app) => app.get(Migrations).pending());
    printResult({ pending });
  }
}
