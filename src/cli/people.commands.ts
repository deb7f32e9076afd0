import type { INestApplicationContext } from '@nestjs/common';
import { AccountsService } from '../auth/accounts.service';
import type { Role } from '../auth/roles';
import { MembersService } from '../people/members.service';
import { UsersService } from '../people/users.service';
import { defineCommand } from './command-line';
import { PeopleWorkModule, type CommandContext } from './command-context';
import {
  ACCOUNT_OPTION,
  accountId,
  accountIdOf,
  optional,
  password,
  required,
  role,
  userEmail,
  accountName,
} from './options';
import { CommandFailedError, printResult, UsageError } from './output';

const EMAIL_OPTION = { value: 'EMAIL', description: "the person's email", required: true, parse: userEmail };
const ROLE_OPTION = { value: 'ROLE', description: 'owner, admin, editor or viewer', parse: role };
const PASSWORD_OPTION = { value: 'PASSWORD', description: '10 to 256 characters', parse: password };

/** The people commands' work, with the account `--account` names found first (when it is given). */
async function onPeople<T>(
  context: CommandContext,
  account: string | undefined,
  work: (app: INestApplicationContext, accountId: number | null) => Promise<T>,
): Promise<T> {
  return context.run(PeopleWorkModule.forCommand(), async (app) => {
    if (account === undefined) return work(app, null);
    const id = accountIdOf(account);
    if (id === null || (await app.get(AccountsService).findById(id)) === null) {
      throw new CommandFailedError(`No account with id ${account}`);
    }
    return work(app, id);
  });
}

export const userCreate = defineCommand({
  name: 'user:create',
  description: "make a person who signs in with an email and a password (or set an existing one's password)",
  options: {
    email: EMAIL_OPTION,
    password: { ...PASSWORD_OPTION, required: true },
    name: {
      value: 'NAME',
      description: 'their name (default: the part of the email before @)',
      parse: accountName,
    },
    account: { ...ACCOUNT_OPTION, required: false, description: 'a workspace to add them to, with --role' },
    role: ROLE_OPTION,
  },
  async run(options, context) {
    const email = required('--email', options.email);
    const secret = required('--password', options.password);
    const account = optional('--account', options.account);
    const asRole = optional('--role', options.role);
    if ((account === undefined) !== (asRole === undefined))
      throw new UsageError('--account and --role go together');
    const result = await onPeople(context, account, async (app, id) => {
      const { user, created } = await app
        .get(UsersService)
        .createOrSetPassword({ email, password: secret, name: optional('--name', options.name) });
      if (id !== null) await app.get(MembersService).add(id, user.id, asRole as Role);
      return { id: user.id, name: user.name, email: user.email, created, account: id, role: asRole ?? null };
    });
    printResult(result);
  },
});

export const userInvite = defineCommand({
  name: 'user:invite',
  description: 'invite a person to a workspace: prints the link to accept (mailed too when SMTP_URL is set)',
  options: { account: ACCOUNT_OPTION, email: EMAIL_OPTION, role: { ...ROLE_OPTION, required: true } },
  async run(options, context) {
    const account = required('--account', options.account);
    const email = required('--email', options.email);
    const asRole = required('--role', options.role);
    const invitation = await onPeople(context, account, (app, id) =>
      app.get(MembersService).invite(null, id!, { email, role: asRole }),
    );
    printResult({ ...invitation });
  },
});

export const userResetPassword = defineCommand({
  name: 'user:reset-password',
  description: "set a person's password (ending their sessions), or print a one-time link to choose one",
  options: {
    email: EMAIL_OPTION,
    password: { ...PASSWORD_OPTION, description: '10 to 256 characters; without it, a link is printed' },
  },
  async run(options, context) {
    const email = required('--email', options.email);
    const secret = optional('--password', options.password);
    const result = await onPeople(context, undefined, async (app) => {
      const users = app.get(UsersService);
      if ((await users.findByEmail(email)) === null)
        throw new CommandFailedError(`No user with email ${email}`);
      if (secret !== undefined) {
        await users.createOrSetPassword({ email, password: secret });
        return { email, reset: true };
      }
      return { email, reset_url: await users.resetLink(email) };
    });
    printResult(result);
  },
});

export const memberSetRole = defineCommand({
  name: 'member:set-role',
  description: "change a member's role in a workspace (the CLI may make or demote an owner)",
  options: { account: ACCOUNT_OPTION, email: EMAIL_OPTION, role: { ...ROLE_OPTION, required: true } },
  async run(options, context) {
    const account = required('--account', options.account);
    const email = required('--email', options.email);
    const asRole = required('--role', options.role);
    const member = await onPeople(context, account, async (app, id) => {
      const user = await app.get(UsersService).findByEmail(email);
      if (user === null) throw new CommandFailedError(`No user with email ${email}`);
      return app.get(MembersService).setRole(null, id!, user.id, asRole);
    });
    printResult({ account: accountId(account), ...member });
  },
});
