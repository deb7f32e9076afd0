import { Migrations } from '../database/migrate';
import { defineCommand } from './command-line';
import { MigrationsWorkModule } from './command-context';
import { printResult } from './output';

export const migrationRun = defineCommand({
  name: 'migration:run',
  description: 'apply pending migrations',
  options: {},
  async run(_options, context) {
    const applied = await context.run(MigrationsWorkModule.forCommand(), (app) => app.get(Migrations).run());
    printResult({ applied });
  },
});

export const migrationRevert = defineCommand({
  name: 'migration:revert',
  description: 'undo the last migration',
  options: {},
  async run(_options, context) {
    await context.run(MigrationsWorkModule.forCommand(), (app) => app.get(Migrations).revert());
    printResult({ reverted: true });
  },
});

export const migrationShow = defineCommand({
  name: 'migration:show',
  description: 'list migrations and whether each is applied',
  options: {},
  async run(_options, context) {
    const pending = await context.run(MigrationsWorkModule.forCommand(), (app) =>
      app.get(Migrations).pending(),
    );
    printResult({ pending });
  },
});
