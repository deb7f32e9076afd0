import { Command, CommandRunner, Option } from 'nest-commander';
import { AccountsService } from '../auth/accounts.service';
import { AccountsWorkModule, CommandContext } from './command-context';
import { accountId, accountIdOf, required, text, type Given } from './options';
import { CommandFailedError, printResult } from './output';

@Command({ name: 'key:create', description: 'add an API key to an account' })
export class KeyCreateCommand extends CommandRunner {
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
    const issued =
      number === null
        ? null
        : await this.context.run(AccountsWorkModule, async (app) => {
            const accounts = app.get(AccountsService);
            const account = await accounts.findById(number);
            return account === null ? null : accounts.createKey(account);
          });
    if (issued === null) throw new CommandFailedError(`No account with id ${id}`);
    printResult({ id: issued.account.id, name: issued.account.name, api_key: issued.apiKey });
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
