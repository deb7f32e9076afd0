import { Command, CommanderError, Option } from 'commander';
import { ConfigError } from '../config/app-config';
import { EmbeddedDatabaseBusyError } from '../database/embedded-database';
import type { CommandContext } from './command-context';
import type { Given } from './options';
import { CommandFailedError, UsageError } from './output';

/**
 * An option of a command, named by its key in the command's options (`name` is `--name`). Its value is written
 * `[VALUE]` so that `--name` without one reaches the command as `true`; `parse` checks and converts a value given,
 * and throws UsageError for one it refuses.
 */
export interface CommandOption<T> {
  value: string;
  description: string;
  required?: boolean;
  parse(value: string): T;
}

type OptionValues<O> = { [K in keyof O]?: O[K] extends CommandOption<infer T> ? Given<T> : never };

/** A command of the CLI: what the usage says of it, its options, and its work once the command line is read. */
export interface CliCommand<
  O extends Record<string, CommandOption<unknown>> = Record<string, CommandOption<unknown>>,
> {
  name: string;
  description: string;
  options: O;
  run(options: OptionValues<O>, context: CommandContext): Promise<void>;
}

/** A command, with the type of each option's value carried to `run`. */
export function defineCommand<O extends Record<string, CommandOption<unknown>>>(
  command: CliCommand<O>,
): CliCommand<O> {
  return command;
}

/** Exit codes: sysexits' EX_USAGE for a command line that cannot be run as written. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 64;

/** Where the usage starts a command's description. */
const DESCRIPTION_COLUMN = 31;

/** An option as the usage writes it: `--name NAME`. */
function optionTerm(option: Option): string {
  return option.flags.replace(/[[\]<>]/g, '');
}

/** A command as the usage writes it: `account:create --name NAME [--email EMAIL]`. */
export function synopsis(command: Command): string {
  const options = command.options.map((option) =>
    option.mandatory ? optionTerm(option) : `[${optionTerm(option)}]`,
  );
  return [command.name(), ...options].join(' ');
}

/** The usage of the whole program, from the commands registered: each one's synopsis and what it does. */
export function usage(program: Command): string {
  const lines = program.commands.map((command) => {
    const name = `  ${synopsis(command)}`;
    const description = command.description();
    return name.length < DESCRIPTION_COLUMN
      ? `${name.padEnd(DESCRIPTION_COLUMN)}${description}`
      : `${name}\n${' '.repeat(DESCRIPTION_COLUMN)}${description}`;
  });
  return [
    `Usage: ${program.name()} <command> [options]`,
    '',
    ...lines,
    '',
    'The last line on stdout is the result as one JSON object; messages go to stderr.',
    `\`${program.name()} <command> --help\` describes a command's options.`,
  ].join('\n');
}

/** The usage of one command: its synopsis, what it does, and each option. */
export function commandUsage(command: Command): string {
  const program = command.parent?.name() ?? 'cli';
  const width = Math.max(0, ...command.options.map((option) => optionTerm(option).length));
  const options = command.options.map(
    (option) =>
      `  ${optionTerm(option).padEnd(width)}   ${option.description}${option.mandatory ? ' (required)' : ''}`,
  );
  return [
    `Usage: ${program} ${synopsis(command)}`,
    '',
    `  ${command.description()}`,
    ...(options.length === 0 ? [] : ['', 'Options:', ...options]),
    '',
  ].join('\n');
}

/** Commander's message for a command line it could not read, in the words the CLI has always used. */
export function usageMessage(error: Pick<CommanderError, 'code' | 'message'>): string {
  if (error.code === 'commander.help') return 'No command given';
  const missing = /^error: required option '(--[\w-]+)/.exec(error.message);
  if (missing !== null) return `Missing ${missing[1]}`;
  const unknownCommand = /^error: unknown command '(.*)'/.exec(error.message);
  if (unknownCommand !== null) return `Unknown command: ${unknownCommand[1]}`;
  const message = error.message.replace(/^error: /, '');
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** What a failure writes on stderr and the exit code it ends with. */
export function failureReport(error: unknown, programUsage: string): { stderr: string; code: number } {
  if (error instanceof CommanderError) {
    // `--help`: the help went to stdout.
    if (error.exitCode === 0) return { stderr: '', code: EXIT_OK };
    return { stderr: `${usageMessage(error)}\n\n${programUsage}\n`, code: EXIT_USAGE };
  }
  if (error instanceof UsageError) {
    return { stderr: `${error.message}\n\n${programUsage}\n`, code: EXIT_USAGE };
  }
  if (
    error instanceof CommandFailedError ||
    error instanceof ConfigError ||
    error instanceof EmbeddedDatabaseBusyError
  ) {
    return { stderr: `${error.message}\n`, code: EXIT_FAILED };
  }
  const described = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { stderr: `${described}\n`, code: EXIT_FAILED };
}

/**
 * The command line: named `cli`, the commands in the order given, its help the usage above, and every error of
 * parsing (in the program or in a command) thrown to {@link failureReport} rather than written and exited on the
 * spot. Extra arguments after a command are ignored, as they always were.
 */
export function commandLine(commands: readonly CliCommand[], context: CommandContext): Command {
  const program = new Command('cli').configureHelp({ formatHelp: (self) => `${usage(self)}\n` });
  for (const definition of commands) {
    const command = new Command(definition.name)
      .description(definition.description)
      .allowExcessArguments()
      .configureHelp({ formatHelp: commandUsage });
    for (const [key, option] of Object.entries(definition.options)) {
      command.addOption(
        new Option(`--${key} [${option.value}]`, option.description)
          .makeOptionMandatory(option.required ?? false)
          .argParser((value: string) => option.parse(value)),
      );
    }
    command.action(() => definition.run(command.opts(), context));
    program.addCommand(command);
  }
  for (const command of [program, ...program.commands]) {
    command
      .exitOverride()
      .showSuggestionAfterError(false)
      // Errors are written once, with the usage, by the failure report; help goes to stdout.
      .configureOutput({ writeErr: () => undefined });
  }
  return program;
}
