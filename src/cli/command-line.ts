import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectCommander, type CommandRunner } from 'nest-commander';
import { ConfigError } from '../config/app-config';
import { EmbeddedDatabaseBusyError } from '../database/embedded-database';
import { CommandFailedError, UsageError } from './output';

/**
 * Commander is nest-commander's own, at the version it pins: its types are taken from nest-commander's, and its
 * errors are recognised by their code rather than by a class another copy of commander would not share.
 */
type Command = Parameters<CommandRunner['setCommand']>[0];

interface CommanderError {
  code: string;
  exitCode: number;
  message: string;
}

function isCommanderError(error: unknown): error is CommanderError {
  const { code, exitCode } = (error ?? {}) as Partial<Record<keyof CommanderError, unknown>>;
  return typeof code === 'string' && code.startsWith('commander.') && typeof exitCode === 'number';
}

/** Exit codes: sysexits' EX_USAGE for a command line that cannot be run as written. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 64;

/** Where the usage starts a command's description. */
const DESCRIPTION_COLUMN = 31;

type CommandOption = Command['options'][number];

/** An option as the usage writes it: `--name NAME`. */
function optionTerm(option: CommandOption): string {
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
export function usageMessage(error: CommanderError): string {
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
  if (isCommanderError(error)) {
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
 * The command line around the commands: named `cli`, its help is the usage above, and every error of parsing
 * (in the program or in a command) is thrown to {@link failureReport} rather than written and exited on the spot.
 */
@Injectable()
export class CommandLine implements OnApplicationBootstrap {
  constructor(@InjectCommander() private readonly program: Command) {}

  onApplicationBootstrap(): void {
    this.program.name('cli').configureHelp({ formatHelp: (program) => `${usage(program)}\n` });
    for (const command of [this.program, ...this.program.commands]) {
      command
        .exitOverride()
        .showSuggestionAfterError(false)
        // Errors are written once, with the usage, by the failure report; help goes to stdout.
        .configureOutput({ writeErr: () => undefined });
    }
    for (const command of this.program.commands) command.configureHelp({ formatHelp: commandUsage });
  }

  usage(): string {
    return usage(this.program);
  }

  report(error: unknown): { stderr: string; code: number } {
    return failureReport(error, this.usage());
  }
}
