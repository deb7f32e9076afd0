import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** A command line that cannot be run as written: exit 64, with the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command that ran and could not do its work (no such account, no such key): exit 1, the message alone. */
export class CommandFailedError extends Error {
  override name = 'CommandFailedError';
}

/**
 * Diagnostics on stderr, so that stdout carries only the result. A failure to start is not logged by Nest's
 * exception handler: it reaches the command line, which reports every failure once.
 */
export class StderrLogger extends ConsoleLogger {
  constructor() {
    super('cli', { logLevels: ['error', 'warn'] });
  }

  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    if (context === 'ExceptionHandler') return;
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}

/** One JSON object on a line, written as the contract shows it: `{"id": 1, "name": "NAME", "api_key": "..."}`. */
export function formatResult(result: Record<string, unknown>): string {
  const fields = Object.entries(result).map(
    ([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{${fields.join(', ')}}\n`;
}

/** The result of a command: the last line on stdout. */
export function printResult(result: Record<string, unknown>): void {
  process.stdout.write(formatResult(result));
}
