import { AccountsService } from '../auth/accounts.service';
import { toKeyResponse } from '../keys/key.mapper';
import { defineCommand } from './command-line';
import { AccountsWorkModule } from './command-context';
import { ACCOUNT_OPTION, expiry, keyName, optional, required, scopeList, text } from './options';
import { CommandFailedError, printResult } from './output';

export const keyCreate = defineCommand({
  name: 'key:create',
  description: 'add an API key to an account: every scope and every space unless --scopes narrows it',
  options: {
    account: ACCOUNT_OPTION,
    name: { value: 'NAME', description: 'to recognise the key by (1 to 100 characters)', parse: keyName },
    scopes: { value: 'LIST', description: 'comma-separated scopes (default: every scope)', parse: scopeList },
    expires: {
      value: 'WHEN',
      description: 'when the key stops working: Y-m-d H:i, UTC (default: never)',
      parse: expiry,
    },
  },
  async run(options, context) {
    const id = required('--account', options.account);
    const grant = {
      name: optional('--name', options.name),
      scopes: optional('--scopes', options.scopes),
      expiresAt: optional('--expires', options.expires) ?? null,
    };
    const issued = await context.onAccount(id, (accounts, account) => accounts.createKey(account, grant));
    // The contract's shape, as account:create prints it; key:list shows the rest.
    printResult({ id: issued.account.id, name: issued.account.name, api_key: issued.apiKey });
  },
});

export const keyList = defineCommand({
  name: 'key:list',
  description: "list an account's live keys (never their secrets)",
  options: {
    account: ACCOUNT_OPTION,
  },
  async run(options, context) {
    const id = required('--account', options.account);
    const { account, keys } = await context.onAccount(id, async (accounts, found) => ({
      account: found.id,
      keys: await accounts.listKeys(found.id),
    }));
    printResult({ account, keys: keys.map(toKeyResponse) });
  },
});

export const keyRevoke = defineCommand({
  name: 'key:revoke',
  description: 'revoke an API key',
  options: {
    key: {
      value: 'KEY',
      description: 'the key, as it was issued',
      required: true,
      parse: (value: string) => text('--key', value),
    },
  },
  async run(options, context) {
    const key = required('--key', options.key);
    const revoked = await context.run(AccountsWorkModule.forCommand(), (app) =>
      app.get(AccountsService).revokeKey(key),
    );
    if (!revoked) throw new CommandFailedError('No live API key has that value');
    printResult({ revoked: true });
  },
});
