import 'reflect-metadata';
import { CommandContext } from './cli/command-context';
import { actingAs } from './common/actor';
import { commandLine, EXIT_FAILED, EXIT_OK, failureReport, usage } from './cli/command-line';
import { COMMANDS } from './cli/commands';

/** Runs the command line; the exit code. */
async function main(): Promise<number> {
  const program = commandLine(COMMANDS, new CommandContext());
  try {
    // What a command changes is recorded in the audit log as the CLI's.
    await actingAs({ type: 'cli', id: null, name: null, ip: null }, () => program.parseAsync(process.argv));
    return EXIT_OK;
  } catch (error) {
    // A command's error, or the command line's, is reported once, here.
    const { stderr, code } = failureReport(error, usage(program));
    process.stderr.write(stderr);
    return code;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(EXIT_FAILED);
  },
);
