import { Command, CommandRunner, Option } from 'nest-commander';
import { AccountsService } from '../auth/accounts.service';
import type { Scope } from '../auth/scopes';
import { toKeyResponse } from '../keys/key.mapper';
import { AccountsWorkModule, CommandContext } from './command-context';
import {
  accountId,
  accountIdOf,
  expiry,
  keyName,
  optional,
  required,
  scopeList,
  text,
  type Given,
} from './options';
import { CommandFailedError, printResult } from './output';

interface KeyCreateOptions {
  account?: Given<string>;
  name?: Given<string>;
  scopes?: Given<Scope[]>;
  expires?: Given<Date>;
}

@Command({
  name: 'key:create',
  description: 'add an API key to an account: every scope and every space unless --scopes narrows it',
})
export class KeyCreateCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  @Option({ flags: '--account [ID]', description: "the account's id", required: true })
  parseAccount(value: string): string {
    return accountId(value);
  }

  @Option({ flags: '--name [NAME]', description: 'to recognise the key by (1 to 100 characters)' })
  parseName(value: string): string {
    return keyName(value);
  }

  @Option({ flags: '--scopes [LIST]', description: 'comma-separated scopes (default: every scope)' })
  parseScopes(value: string): Scope[] {
    return scopeList(value);
  }

  @Option({
    flags: '--expires [WHEN]',
    description: 'when the key stops working: Y-m-d H:i, UTC (default: never)',
  })
  parseExpires(value: string): Date {
    return expiry(value);
  }

  async run(_params: string[], options: KeyCreateOptions): Promise<void> {
    const id = required('--account', options.account);
    const grant = {
      name: optional('--name', options.name),
      scopes: optional('--scopes', options.scopes),
      expiresAt: optional('--expires', options.expires) ?? null,
    };
    const number = accountIdOf(id);
    const issued =
      number === null
        ? null
        : await this.context.run(AccountsWorkModule, async (app) => {
            const accounts = app.get(AccountsService);
            const account = await accounts.findById(number);
            return account === null ? null : accounts.createKey(account, grant);
          });
    if (issued === null) throw new CommandFailedError(`No account with id ${id}`);
    // The contract's shape, as account:create prints it; key:list shows the rest.
    printResult({ id: issued.account.id, name: issued.account.name, api_key: issued.apiKey });
  }
}

@Command({ name: 'key:list', description: "list an account's live keys (never their secrets)" })
export class KeyListCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  @Option({ flags: '--account [ID]', description: "the account's id", required: true })
  parseAccount(value: string): string {
    return accountId(value);
  }

  async run(_params: string[], options: { account?: Given<string> }): Promise<void> {
    const id = required('--account', options.account);
    const number = accountIdOf(id);
    const keys =
      number === null
        ? null
        : await this.context.run(AccountsWorkModule, async (app) => {
            const accounts = app.get(AccountsService);
            return (await accounts.findById(number)) === null ? null : accounts.listKeys(number);
          });
    if (keys === null) throw new CommandFailedError(`No account with id ${id}`);
    printResult({ account: number, keys: keys.map(toKeyResponse) });
  }
}

@Command({ name: 'key:revoke', description: 'revoke an API key' })
export class KeyRevokeCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  @Option({ flags: '--key [KEY]', description: 'the key, as it was issued', required: true })
  parseKey(value: string): string {
    return text('--key', value);
  }

  async run(_params: string[], options: { key?: Given<string> }): Promise<void> {
    const key = required('--key', options.key);
    const revoked = await this.context.run(AccountsWorkModule, (app) =>
      app.get(AccountsService).revokeKey(key),
    );
    if (!revoked) throw new CommandFailedError('No live API key has that value');
    printResult({ revoked: true });
  }
}
