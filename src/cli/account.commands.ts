import { AccountsService } from '../auth/accounts.service';
import { defineCommand } from './command-line';
import { AccountsWorkModule } from './command-context';
import { ACCOUNT_EMAIL_OPTION, ACCOUNT_NAME_OPTION, ACCOUNT_OPTION, optional, required } from './options';
import { printResult, UsageError } from './output';

export const accountCreate = defineCommand({
  name: 'account:create',
  description: 'create an account and its first API key',
  options: {
    name: { ...ACCOUNT_NAME_OPTION, required: true },
    email: ACCOUNT_EMAIL_OPTION,
  },
  async run(options, context) {
    const name = required('--name', options.name);
    const email = optional('--email', options.email) ?? null;
    const { account, apiKey } = await context.run(AccountsWorkModule.forCommand(), (app) =>
      app.get(AccountsService).createAccount(name, email),
    );
    printResult({ id: account.id, name: account.name, api_key: apiKey });
  },
});

export const accountUpdate = defineCommand({
  name: 'account:update',
  description: "change an account's name or email",
  options: {
    account: ACCOUNT_OPTION,
    name: ACCOUNT_NAME_OPTION,
    email: ACCOUNT_EMAIL_OPTION,
  },
  async run(options, context) {
    const id = required('--account', options.account);
    const name = optional('--name', options.name);
    const email = optional('--email', options.email);
    if (name === undefined && email === undefined) {
      throw new UsageError('account:update needs --name or --email');
    }
    const account = await context.onAccount(id, (accounts, found) =>
      accounts.updateAccount(found, {
        ...(name !== undefined && { name }),
        ...(email !== undefined && { email }),
      }),
    );
    printResult({ id: account.id, name: account.name, email: account.email });
  },
});
