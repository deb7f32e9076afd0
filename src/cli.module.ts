import { Module } from '@nestjs/common';
import { AccountCreateCommand, AccountUpdateCommand } from './cli/account.commands';
import { CommandContext } from './cli/command-context';
import { CommandLine } from './cli/command-line';
import { KeyCreateCommand, KeyListCommand, KeyRevokeCommand } from './cli/key.commands';
import { StatsRebuildCommand } from './cli/stats.commands';
import { MigrationRevertCommand, MigrationRunCommand, MigrationShowCommand } from './cli/migration.commands';

/**
 * The commands, in the order the usage lists them. Reading a command line needs no settings and no database:
 * each command opens the module it works with once its options are known (see CommandContext).
 */
@Module({
  providers: [
    CommandLine,
    CommandContext,
    AccountCreateCommand,
    AccountUpdateCommand,
    KeyCreateCommand,
    KeyListCommand,
    KeyRevokeCommand,
    MigrationRunCommand,
    MigrationRevertCommand,
    MigrationShowCommand,
    StatsRebuildCommand,
  ],
})
export class CliModule {}
