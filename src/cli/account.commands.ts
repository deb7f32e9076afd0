import { Command, CommandRunner, Option } from 'nest-commander';
import { AccountsService } from '../auth/accounts.service';
import { AccountsWorkModule, CommandContext } from './command-context';
import { accountId, accountIdOf, accountName, emailAddress, optional, required, type Given } from './options';
import { CommandFailedError, printResult, UsageError } from './output';

@Command({ name: 'account:create', description: 'create an account and its first API key' })
export class AccountCreateCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  @Option({ flags: '--name [NAME]', description: "the account's name", required: true })
  parseName(value: string): string {
    return accountName(value);
  }

  @Option({ flags: '--email [EMAIL]', description: "the account's email address" })
  parseEmail(value: string): string {
    return emailAddress(value);
  }

  async run(_params: string[], options: { name?: Given<string>; email?: Given<string> }): Promise<void> {
    const name = required('--name', options.name);
    const email = optional('--email', options.email) ?? null;
    const { account, apiKey } = await this.context.run(AccountsWorkModule, (app) =>
      app.get(AccountsService).createAccount(name, email),
    );
    printResult({ id: account.id, name: account.name, api_key: apiKey });
  }
}

@Command({ name: 'account:update', description: "change an account's name or email" })
export class AccountUpdateCommand extends CommandRunner {
  constructor(private readonly context: CommandContext) {
    super();
  }

  @Option({ flags: '--account [ID]', description: "the account's id", required: true })
  parseAccount(value: string): string {
    return accountId(value);
  }

  @Option({ flags: '--name [NAME]', description: 'its new name' })
  parseName(value: string): string {
    return accountName(value);
  }

  @Option({ flags: '--email [EMAIL]', description: 'its new email address' })
  parseEmail(value: string): string {
    return emailAddress(value);
  }

  async run(
    _params: string[],
    options: { account?: Given<string>; name?: Given<string>; email?: Given<string> },
  ): Promise<void> {
    const id = required('--account', options.account);
    const name = optional('--name', options.name);
    const email = optional('--email', options.email);
    if (name === undefined && email === undefined) {
      throw new UsageError('account:update needs --name or --email');
    }
    const number = accountIdOf(id);
    const account =
      number === null
        ? null
        : await this.context.run(AccountsWorkModule, (app) =>
            app.get(AccountsService).updateAccount(number, {
              ...(name !== undefined && { name }),
              ...(email !== undefined && { email }),
            }),
          );
    if (account === null) throw new CommandFailedError(`No account with id ${id}`);
    printResult({ id: account.id, name: account.name, email: account.email });
  }
}
