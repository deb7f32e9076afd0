import { accountCreate, accountUpdate } from './account.commands';
import type { CliCommand } from './command-line';
import { keyCreate, keyList, keyRevoke } from './key.commands';
import { migrationRevert, migrationRun, migrationShow } from './migration.commands';
import { memberSetRole, userCreate, userInvite, userResetPassword } from './people.commands';
import { statsRebuild } from './stats.commands';
import { importCommands } from './import.commands';

/**
 * The commands, in the order the usage lists them. Reading a command line needs no settings and no database:
 * each command opens the module it works with once its options are known (see CommandContext).
 */
export const COMMANDS: readonly CliCommand[] = [
  accountCreate,
  accountUpdate,
  keyCreate,
  keyList,
  keyRevoke,
  userCreate,
  userInvite,
  userResetPassword,
  memberSetRole,
  migrationRun,
  migrationRevert,
  migrationShow,
  statsRebuild,
  ...importCommands,
];
