import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { AppConfigModule } from '../config/config.module';
import { ChangeFeedModule } from '../database/change-feed';
import { ReadReplicasModule } from '../database/read-replicas';
import { DatabaseModule } from '../database/database.module';
import { PreparedStatementsModule } from '../database/prepared-statements';
import { OutboxModule } from '../events/outbox/outbox.module';
import { LoggingModule } from '../common/logging.module';
import { MetricsModule } from '../metrics/metrics.module';
import { validateItems } from '../common/validation.pipe';
import { ValidationFailedException } from '../common/exceptions';
import { CreateImportDto } from '../imports/dto/import.dto';
import type { ImportResponse } from '../imports/import.mapper';
import { ImportsModule } from '../imports/imports.module';
import { ImportsService } from '../imports/imports.service';
import { ImportRunner } from '../imports/import-runner';
import type { ImportSourceName } from '../imports/sources/source';
import { AccountsService } from '../auth/accounts.service';
import { AuthModule } from '../auth/auth.module';
import { defineCommand, type CliCommand, type CommandOption } from './command-line';
import { ACCOUNT_OPTION, accountIdOf, required, type Given } from './options';
import { CommandFailedError, printResult, UsageError } from './output';
import { progressLine } from './progress';

/**
 * What an import command works with: the service's own import runner and everything its pages are written with,
 * on the database shared with a running server (either may run the import; the other shows its progress).
 */
@Module({})
export class ImportsWorkModule {
  static forCommand(): DynamicModule {
    return {
      module: ImportsWorkModule,
      imports: [
        AppConfigModule,
        LoggingModule,
        MetricsModule,
        DatabaseModule.forRoot({ shareEmbedded: true, retryAttempts: 0 }),
        ChangeFeedModule,
        ReadReplicasModule,
        OutboxModule,
        PreparedStatementsModule,
        AuthModule,
        ImportsModule,
      ],
    };
  }
}

const POLL_MS = 500;

/** A text option of an import: required ones are checked by the import's own rules, as the API checks them. */
function textOption(value: string, description: string): CommandOption<string> {
  return { value, description, parse: (given: string) => given };
}

const CHOICES = {
  'dry-run': {
    value: '0|1',
    description: 'report what would happen, write nothing',
    parse: (value: string) => value,
  },
  'on-conflict': textOption(
    'skip|suffix|update',
    'a taken alias: skip the link (default), alias-N, or update it',
  ),
};

/** The import's fields from the command's options, as the API's body names them. */
type Fields = Partial<
  Record<'url' | 'api_key' | 'access_token' | 'database_url' | 'table_prefix', Given<string>>
>;

function importCommand(
  source: ImportSourceName,
  description: string,
  options: Record<string, CommandOption<string>>,
  fields: (given: Record<string, Given<string>>) => Fields,
): CliCommand {
  return defineCommand({
    name: `import:${source}`,
    description,
    options: { account: ACCOUNT_OPTION, ...options, ...CHOICES },
    // Commander names each option's value in camel case: `--api-key` is `apiKey`.
    async run(given: Record<string, Given<string>>, context) {
      const accountId = accountIdOf(required('--account', given.account));
      if (accountId === null) throw new CommandFailedError(`No account with id ${String(given.account)}`);
      const body = {
        source,
        ...fields(given),
        dry_run: flag(given.dryRun),
        on_conflict: given.onConflict,
      };
      const [{ value: dto, errors }] = await validateItems(CreateImportDto, [withoutAbsent(body)]);
      const refusal = Object.entries(errors)[0];
      if (refusal !== undefined) throw new UsageError(`--${refusal[0].replace('_', '-')}: ${refusal[1][0]}`);
      // The command runs the import it starts, and no other: this process's runner takes none by itself.
      process.env.IMPORT_RUNNER = 'false';
      const ended = await context.run(ImportsWorkModule.forCommand(), (app) => follow(app, accountId, dto));
      printResult({ ...ended, progress: ended.progress, errors: ended.errors });
      if (ended.status !== 'done')
        throw new CommandFailedError(`The import ${ended.status}: ${firstError(ended)}`);
    },
  });
}

/**
 * Starts the import, runs it here (or watches the instance that runs it, when one took it first, or the workspace's
 * import before it), and shows its progress until it ends, on stderr: a bar on a terminal, a line a step otherwise.
 */
async function follow(
  app: INestApplicationContext,
  accountId: number,
  dto: CreateImportDto,
): Promise<ImportResponse> {
  const account = await app.get(AccountsService).findById(accountId);
  if (account === null) throw new CommandFailedError(`No account with id ${accountId}`);
  const imports = app.get(ImportsService);
  const runner = app.get(ImportRunner);
  const caller = imports.callerFor(account);
  let shown: ImportResponse;
  try {
    shown = await imports.create(caller, dto);
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    const [field, reasons] = Object.entries(error.fields)[0];
    throw new UsageError(`--${field.replace('_', '-')}: ${reasons[0]}`);
  }
  let running: Promise<unknown> | null = null;
  let last = '';
  while (shown.status === 'queued' || shown.status === 'running') {
    if (running === null && shown.status === 'queued') {
      running = runner.runNow(shown.id).finally(() => (running = null));
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    shown = await imports.show(caller, shown.id);
    const line = progressLine(shown, process.stderr.isTTY === true);
    if (line !== last) process.stderr.write(line);
    last = line;
  }
  await running;
  if (process.stderr.isTTY === true) process.stderr.write('\n');
  return shown;
}

function firstError(shown: ImportResponse): string {
  return shown.errors.at(-1)?.message ?? 'no reason given';
}

function flag(value: Given<string>): string | undefined {
  if (value === undefined) return undefined;
  return value === true ? '1' : value;
}

function withoutAbsent(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

const URL_OPTION = textOption('URL', "the source's base URL");
const API_KEY_OPTION = textOption('KEY', "the source's API key (used for this import alone)");

export const importCommands: readonly CliCommand[] = [
  importCommand(
    'phpshort',
    'import links, spaces, domains, pixels and stats from a phpShort API (another instance of this service too)',
    { url: URL_OPTION, 'api-key': API_KEY_OPTION },
    (given) => ({ url: given.url, api_key: given.apiKey }),
  ),
  importCommand(
    'shlink',
    'import short URLs and their visits from a Shlink REST API (v3)',
    { url: URL_OPTION, 'api-key': API_KEY_OPTION },
    (given) => ({ url: given.url, api_key: given.apiKey }),
  ),
  importCommand(
    'kutt',
    'import links and their stats from a Kutt API (v2)',
    { url: URL_OPTION, 'api-key': API_KEY_OPTION },
    (given) => ({ url: given.url, api_key: given.apiKey }),
  ),
  importCommand(
    'bitly',
    'import groups, bitlinks and their clicks per day from the Bitly API (v4)',
    {
      'access-token': textOption('TOKEN', 'a Bitly access token'),
      url: textOption('URL', "Bitly's API (default)"),
    },
    (given) => ({ access_token: given.accessToken, url: given.url }),
  ),
  importCommand(
    'yourls',
    "import links and their logged visits from YOURLS' MySQL or MariaDB tables",
    {
      'database-url': textOption('URL', 'mysql://user:password@host:3306/database'),
      'table-prefix': textOption('PREFIX', "the tables' prefix (default yourls_)"),
    },
    (given) => ({ database_url: given.databaseUrl, table_prefix: given.tablePrefix }),
  ),
];
