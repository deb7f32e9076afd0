import { CommanderError } from 'commander';
import { ConfigError } from '../config/app-config';
import { EmbeddedDatabaseBusyError } from '../database/embedded-database';
import { CommandContext } from './command-context';
import { commandLine, defineCommand, failureReport, usage, usageMessage } from './command-line';
import { COMMANDS } from './commands';
import { CommandFailedError, formatResult, UsageError } from './output';

/** An error as commander throws it under exitOverride. */
function commanderError(code: string, message: string, exitCode = 1): CommanderError {
  return new CommanderError(exitCode, code, message);
}

describe('the CLI command line', () => {
  describe('its usage, from the commands registered', () => {
    it('lists each command with its options, required ones bare, in the columns it has always had', () => {
      // Reading the command line needs no settings and no database.
      expect(usage(commandLine(COMMANDS, new CommandContext()))).toBe(
        [
          'Usage: cli <command> [options]',
          '',
          '  account:create --name NAME [--email EMAIL]',
          '                               create an account and its first API key',
          '  account:update --account ID [--name NAME] [--email EMAIL]',
          "                               change an account's name or email",
          '  key:create --account ID [--name NAME] [--scopes LIST] [--expires WHEN]',
          '                               add an API key to an account: every scope and every space unless --scopes narrows it',
          "  key:list --account ID        list an account's live keys (never their secrets)",
          '  key:revoke --key KEY         revoke an API key',
          '  user:create --email EMAIL --password PASSWORD [--name NAME] [--account ID] [--role ROLE]',
          "                               make a person who signs in with an email and a password (or set an existing one's password)",
          '  user:invite --account ID --email EMAIL --role ROLE',
          '                               invite a person to a workspace: prints the link to accept (mailed too when SMTP_URL is set)',
          '  user:reset-password --email EMAIL [--password PASSWORD]',
          "                               set a person's password (ending their sessions), or print a one-time link to choose one",
          '  member:set-role --account ID --email EMAIL --role ROLE',
          "                               change a member's role in a workspace (the CLI may make or demote an owner)",
          '  migration:run                apply pending migrations',
          '  migration:revert             undo the last migration',
          '  migration:show               list migrations and whether each is applied',
          '  stats:rebuild [--link ID]    recompute the stats rollups from the raw clicks still held (of one link, or of all)',
          '  import:phpshort --account ID [--url URL] [--api-key KEY] [--dry-run 0|1] [--on-conflict skip|suffix|update]',
          '                               import links, spaces, domains, pixels and stats from a phpShort API (another instance of this service too)',
          '  import:shlink --account ID [--url URL] [--api-key KEY] [--dry-run 0|1] [--on-conflict skip|suffix|update]',
          '                               import short URLs and their visits from a Shlink REST API (v3)',
          '  import:kutt --account ID [--url URL] [--api-key KEY] [--dry-run 0|1] [--on-conflict skip|suffix|update]',
          '                               import links and their stats from a Kutt API (v2)',
          '  import:bitly --account ID [--access-token TOKEN] [--url URL] [--dry-run 0|1] [--on-conflict skip|suffix|update]',
          '                               import groups, bitlinks and their clicks per day from the Bitly API (v4)',
          '  import:yourls --account ID [--database-url URL] [--table-prefix PREFIX] [--dry-run 0|1] [--on-conflict skip|suffix|update]',
          "                               import links and their logged visits from YOURLS' MySQL or MariaDB tables",
          '',
          'The last line on stdout is the result as one JSON object; messages go to stderr.',
          "`cli <command> --help` describes a command's options.",
        ].join('\n'),
      );
    });
  });

  describe('how a command line reaches a command', () => {
    const seen: unknown[] = [];
    const tagCreate = defineCommand({
      name: 'tag:create',
      description: 'create a tag',
      options: {
        name: {
          value: 'NAME',
          description: "the tag's name",
          required: true,
          parse: (value) => value.toUpperCase(),
        },
        colour: {
          value: 'COLOUR',
          description: 'its colour',
          parse: (value) => {
            if (value !== 'red') throw new UsageError('--colour must be red');
            return value;
          },
        },
      },
      run: (options) => {
        seen.push(options);
        return Promise.resolve();
      },
    });

    async function parse(...args: string[]): Promise<unknown> {
      seen.length = 0;
      const program = commandLine([tagCreate], new CommandContext());
      // Commander's help goes to stdout; what the tests look at is what reaches the command, or the error.
      program.commands[0].configureOutput({ writeOut: () => undefined });
      try {
        await program.parseAsync(args, { from: 'user' });
        return seen[0];
      } catch (error) {
        return error;
      }
    }

    it('gives run each option parsed, `true` for one given without a value, and ignores extra arguments', async () => {
      expect(await parse('tag:create', '--name', 'urgent', 'extra')).toEqual({ name: 'URGENT' });
      expect(await parse('tag:create', '--name=urgent', '--colour', 'red')).toEqual({
        name: 'URGENT',
        colour: 'red',
      });
      expect(await parse('tag:create', '--name', '--colour', 'red')).toEqual({ name: true, colour: 'red' });
    });

    it('throws what the report turns into a usage error: a missing or unknown option, a refused value', async () => {
      expect(await parse('tag:create')).toMatchObject({ code: 'commander.missingMandatoryOptionValue' });
      expect(await parse('tag:create', '--name', 'x', '--size', '3')).toMatchObject({
        code: 'commander.unknownOption',
      });
      expect(await parse('tag:create', '--name', 'x', '--colour', 'blue')).toEqual(
        new UsageError('--colour must be red'),
      );
      expect(await parse('tag:delete')).toMatchObject({ code: 'commander.unknownCommand' });
      expect(await parse('tag:create', '--help')).toMatchObject({
        code: 'commander.helpDisplayed',
        exitCode: 0,
      });
      expect(seen).toEqual([]);
    });
  });

  describe('the messages of commander’s errors', () => {
    it.each([
      ['commander.help', '(outputHelp)', 'No command given'],
      [
        'commander.unknownCommand',
        "error: unknown command 'account:destroy'",
        'Unknown command: account:destroy',
      ],
      [
        'commander.missingMandatoryOptionValue',
        "error: required option '--name [NAME]' not specified",
        'Missing --name',
      ],
      ['commander.unknownOption', "error: unknown option '--emial'", "Unknown option '--emial'"],
    ])('%s', (code, message, expected) => {
      expect(usageMessage(commanderError(code, message))).toBe(expected);
    });
  });

  describe('what a failure reports, and its exit code', () => {
    const usage = 'Usage: cli <command> [options]';

    it('help asked for: nothing more, exit 0', () => {
      expect(failureReport(commanderError('commander.helpDisplayed', '(outputHelp)', 0), usage)).toEqual({
        stderr: '',
        code: 0,
      });
    });

    it('a command line that cannot be read: the message, then the usage, exit 64', () => {
      expect(
        failureReport(commanderError('commander.unknownOption', "error: unknown option '--x'"), usage),
      ).toEqual({
        stderr: `Unknown option '--x'\n\n${usage}\n`,
        code: 64,
      });
      expect(failureReport(new UsageError('Missing --name'), usage)).toEqual({
        stderr: `Missing --name\n\n${usage}\n`,
        code: 64,
      });
    });

    it.each([
      new CommandFailedError('No account with id 7'),
      new ConfigError('PORT', 'must be an integer from 0 to 65535'),
      new EmbeddedDatabaseBusyError('The embedded database in /data is locked by process 12'),
    ])('a failure the CLI explains (%p): its message alone, exit 1', (error) => {
      expect(failureReport(error, usage)).toEqual({ stderr: `${error.message}\n`, code: 1 });
    });

    it('anything else: its stack, for whoever has to look into it, exit 1', () => {
      const error = new Error('connect ECONNREFUSED 127.0.0.1:5432');
      expect(failureReport(error, usage)).toEqual({ stderr: `${error.stack}\n`, code: 1 });
    });
  });

  it('writes the result as the contract shows it, one JSON object on a line', () => {
    expect(formatResult({ id: 1, name: 'Café "Zürich"', api_key: 'lsk_x' })).toBe(
      '{"id": 1, "name": "Café \\"Zürich\\"", "api_key": "lsk_x"}\n',
    );
    expect(formatResult({ applied: ['A', 'B'] })).toBe('{"applied": ["A","B"]}\n');
  });
});
