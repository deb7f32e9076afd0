import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Account } from '../auth/account.entity';
import { AccountsService } from '../auth/accounts.service';
import { AuthModule } from '../auth/auth.module';
import { ClickStore } from '../clicks/click-store.repository';
import { AppConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { PreparedStatementsModule } from '../database/prepared-statements';
import { PeopleModule } from '../people/people.module';
import { accountIdOf } from './options';
import { CommandFailedError, StderrLogger } from './output';

/**
 * What the account and key commands work with: accounts on the migrated database, the embedded one shared with a
 * running server. An unreachable database fails the command at once instead of after TypeORM's retries (~25 s).
 */
@Module({})
export class AccountsWorkModule {
  static forCommand(): DynamicModule {
    return {
      module: AccountsWorkModule,
      imports: [AppConfigModule, database(), PreparedStatementsModule, AuthModule],
    };
  }
}

/** What the people commands work with: users, members and invitations, and the accounts they belong to. */
@Module({})
export class PeopleWorkModule {
  static forCommand(): DynamicModule {
    return {
      module: PeopleWorkModule,
      // The sign-in limits' storage, in memory: a command signs nobody in, and counts nothing anyone shares.
      imports: [
        AppConfigModule,
        database(),
        PreparedStatementsModule,
        ThrottlerModule.forRoot([]),
        PeopleModule,
      ],
    };
  }
}

/** What the stats commands work with: the raw clicks and rollups of the migrated database. */
@Module({})
export class StatsWorkModule {
  static forCommand(): DynamicModule {
    return { module: StatsWorkModule, imports: [AppConfigModule, database()], providers: [ClickStore] };
  }
}

/** What the migration commands work with: the database as it is, migrated only when the command says so. */
@Module({})
export class MigrationsWorkModule {
  static forCommand(): DynamicModule {
    return { module: MigrationsWorkModule, imports: [AppConfigModule, database({ migrateAtStart: false })] };
  }
}

/**
 * The database of a command, declared only when the command runs: @nestjs/typeorm counts the data sources a
 * process declares, and warns (on stdout, where the result goes) of a second one under the same name.
 */
function database(options: { migrateAtStart?: boolean } = {}): DynamicModule {
  return DatabaseModule.forRoot({ shareEmbedded: true, retryAttempts: 0, ...options });
}

/**
 * Opens the module a command works with, once its command line is read: a usage error, `--help` or an unknown
 * command never reads the settings, connects or opens the embedded database. The module runs as an application
 * context of its own, with its lifecycle: closed when the work is done, its database module destroys the data
 * source, then closes the embedded database, as in the server.
 */
export class CommandContext {
  async run<T>(module: DynamicModule, work: (context: INestApplicationContext) => Promise<T>): Promise<T> {
    const context = await NestFactory.createApplicationContext(module, {
      logger: new StderrLogger(),
      // A failure to start reaches the command, which reports it and exits 1, instead of Nest's own exit.
      abortOnError: false,
    });
    try {
      return await work(context);
    } finally {
      await context.close();
    }
  }

  /**
   * The work of a command on the account its `--account` names, found first: an id no account has, or one past the
   * column's range (which would fail as a query), fails the command with "No account with id N".
   */
  async onAccount<T>(
    id: string,
    work: (accounts: AccountsService, account: Account) => Promise<T>,
  ): Promise<T> {
    const number = accountIdOf(id);
    const done =
      number === null
        ? null
        : await this.run(AccountsWorkModule.forCommand(), async (app) => {
            const accounts = app.get(AccountsService);
            const account = await accounts.findById(number);
            return account === null ? null : { result: await work(accounts, account) };
          });
    if (done === null) throw new CommandFailedError(`No account with id ${id}`);
    return done.result;
  }
}
