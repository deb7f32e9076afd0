import 'reflect-metadata';
import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AccountsService } from './auth/accounts.service';
import { CliModule } from './cli.module';
import { MAX_ID } from './common/validation';
import { ConfigError, loadConfig } from './config/app-config';
import { dataSourceOptions } from './database/data-source-options';
import { EmbeddedDatabaseBusyError, openEmbeddedDatabase } from './database/embedded-database';
import { runMigrations } from './database/migrate';

const USAGE = `Usage: cli <command> [options]

  account:create --name NAME [--email EMAIL]
                               create an account and its first API key
  account:update --account ID [--name NAME] [--email EMAIL]
                               change an account's name or email
  key:create --account ID      add an API key to an account
  key:revoke --key KEY         revoke an API key
  migration:run                apply pending migrations
  migration:revert             undo the last migration
  migration:show               list migrations and whether each is applied

The last line on stdout is the result as one JSON object; messages go to stderr.`;

class UsageError extends Error {}

/** Diagnostics on stderr, so that stdout carries only the result. */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}

/** One JSON object, written as the contract shows it: `{"id": 1, "name": "NAME", "api_key": "..."}`. */
function printResult(result: Record<string, unknown>): void {
  const fields = Object.entries(result).map(
    ([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  process.stdout.write(`{${fields.join(', ')}}\n`);
}

function option(args: string[], name: string): string {
  const index = args.indexOf(`--${name}`);
  const inline = args.find((arg) => arg.startsWith(`--${name}=`));
  const value =
    inline !== undefined ? inline.slice(name.length + 3) : index >= 0 ? args[index + 1] : undefined;
  if (value === undefined || value.trim() === '' || (inline === undefined && value.startsWith('--'))) {
    throw new UsageError(`Missing --${name}`);
  }
  return value;
}

/** An option that may be absent; given, it must have a value. */
function optionalOption(args: string[], name: string): string | undefined {
  const given = args.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  return given ? option(args, name) : undefined;
}

function nameOption(args: string[], required: boolean): string | undefined {
  const name = (required ? option(args, 'name') : optionalOption(args, 'name'))?.trim();
  if (name !== undefined && name.length > 255) throw new UsageError('--name must be at most 255 characters');
  return name;
}

/** An address of the form name@host.tld, at most 255 characters: what the account resource reports. */
function emailOption(args: string[]): string | undefined {
  const email = optionalOption(args, 'email')?.trim();
  if (email !== undefined && (email.length > 255 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))) {
    throw new UsageError('--email must be an email address of at most 255 characters');
  }
  return email;
}

function accountIdOption(args: string[]): string {
  const id = option(args, 'account');
  if (!/^[1-9]\d{0,9}$/.test(id)) throw new UsageError('--account must be an account id');
  return id;
}

async function withAccounts<T>(work: (accounts: AccountsService) => Promise<T>): Promise<T> {
  const context = await NestFactory.createApplicationContext(CliModule, {
    logger: new StderrLogger('cli', { logLevels: ['error', 'warn'] }),
  });
  try {
    return await work(context.get(AccountsService));
  } finally {
    await context.close();
  }
}

async function withDataSource<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const embedded =
    config.databaseUrl === undefined
      ? await openEmbeddedDatabase(config.dataDir, {
          allowShared: true,
          log: (m) => process.stderr.write(`${m}\n`),
        })
      : null;
  const dataSource = new DataSource(dataSourceOptions(config.databaseUrl ?? embedded!.url));
  try {
    await dataSource.initialize();
    return await work(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.close();
  }
}

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'account:create': {
      const name = nameOption(rest, true)!;
      const email = emailOption(rest) ?? null;
      const { account, apiKey } = await withAccounts((accounts) => accounts.createAccount(name, email));
      printResult({ id: account.id, name: account.name, api_key: apiKey });
      return 0;
    }
    case 'account:update': {
      const id = accountIdOption(rest);
      const changes = { name: nameOption(rest, false), email: emailOption(rest) };
      if (changes.name === undefined && changes.email === undefined) {
        throw new UsageError('account:update needs --name or --email');
      }
      const account = await withAccounts((accounts) =>
        // Ids are PostgreSQL integers: a larger one names no account (and would fail as a query).
        Number(id) > MAX_ID
          ? Promise.resolve(null)
          : accounts.updateAccount(Number(id), {
              ...(changes.name !== undefined && { name: changes.name }),
              ...(changes.email !== undefined && { email: changes.email }),
            }),
      );
      if (account === null) {
        process.stderr.write(`No account with id ${id}\n`);
        return 1;
      }
      printResult({ id: account.id, name: account.name, email: account.email });
      return 0;
    }
    case 'key:create': {
      const id = accountIdOption(rest);
      const issued = await withAccounts(async (accounts) => {
        // Ids are PostgreSQL integers: a larger one names no account (and would fail as a query).
        const account = Number(id) > MAX_ID ? null : await accounts.findById(Number(id));
        return account === null ? null : accounts.createKey(account);
      });
      if (issued === null) {
        process.stderr.write(`No account with id ${id}\n`);
        return 1;
      }
      printResult({ id: issued.account.id, name: issued.account.name, api_key: issued.apiKey });
      return 0;
    }
    case 'key:revoke': {
      const key = option(rest, 'key');
      const revoked = await withAccounts((accounts) => accounts.revokeKey(key));
      if (!revoked) {
        process.stderr.write('No live API key has that value\n');
        return 1;
      }
      printResult({ revoked: true });
      return 0;
    }
    case 'migration:run': {
      const applied = await withDataSource(runMigrations);
      printResult({ applied: applied.map((migration) => migration.name) });
      return 0;
    }
    case 'migration:revert': {
      await withDataSource((dataSource) => dataSource.undoLastMigration({ transaction: 'each' }));
      printResult({ reverted: true });
      return 0;
    }
    case 'migration:show': {
      const pending = await withDataSource((dataSource) => dataSource.showMigrations());
      printResult({ pending });
      return 0;
    }
    default:
      throw new UsageError(command === undefined ? 'No command given' : `Unknown command: ${command}`);
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    else if (error instanceof ConfigError || error instanceof EmbeddedDatabaseBusyError) {
      process.stderr.write(`${error.message}\n`);
    } else
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(error instanceof UsageError ? 64 : 1);
  },
);
