import 'reflect-metadata';
import { CommandFactory, CommandRunnerService } from 'nest-commander';
import { CliModule } from './cli.module';
import { CommandLine, EXIT_FAILED, EXIT_OK } from './cli/command-line';
import { StderrLogger } from './cli/output';

/** Runs the command line; the exit code. */
async function main(): Promise<number> {
  const failures: unknown[] = [];
  const app = await CommandFactory.createWithoutRunning(CliModule, {
    logger: new StderrLogger(),
    abortOnError: false,
    // A command's error, or the command line's, ends here rather than in nest-commander's default print.
    serviceErrorHandler: (error) => {
      failures.push(error);
    },
  });
  try {
    await app.get(CommandRunnerService).run();
    if (failures.length === 0) return EXIT_OK;
    const { stderr, code } = app.get(CommandLine).report(failures[0]);
    process.stderr.write(stderr);
    return code;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT_FAILED);
  },
);
