import { Inject, Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { AccountsService } from '../auth/accounts.service';
import { AuthModule } from '../auth/auth.module';
import { actingAs } from '../common/actor';
import {
  authConfig,
  peopleConfig,
  serverConfig,
  type AuthConfig,
  type PeopleConfig,
  type ServerConfig,
} from '../config/app-config';
import { MembersService } from './members.service';
import { PeopleModule } from './people.module';
import { UsersService } from './users.service';

/**
 * Makes the first workspace on the first start, so that a fresh install can be used at once: its key (from
 * `INITIAL_API_KEY`, or printed once), and its first owner (from `INITIAL_ADMIN_EMAIL` and `INITIAL_ADMIN_PASSWORD`,
 * or a one-time link to become it, printed once).
 */
@Injectable()
export class FirstStartService implements OnApplicationBootstrap {
  private readonly logger = new Logger(FirstStartService.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly members: MembersService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    @Inject(peopleConfig.KEY) private readonly people: PeopleConfig,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await actingAs({ type: 'system', id: null, name: null, ip: null }, () => this.firstStart());
  }

  private async firstStart(): Promise<void> {
    const issued = await this.accounts.bootstrap(this.config.initialApiKey);
    if (issued === null) return;
    const { account } = issued;
    let owner: string;
    if (this.people.initialAdminEmail !== undefined && this.people.initialAdminPassword !== undefined) {
      const { user } = await this.users.createOrSetPassword({
        email: this.people.initialAdminEmail.toLowerCase(),
        password: this.people.initialAdminPassword,
      });
      await this.members.add(account.id, user.id, 'owner');
      this.logger.log(`Created user ${user.id} from INITIAL_ADMIN_EMAIL, owner of account ${account.id}`);
      owner = `Sign in as ${user.email} at ${this.server.appUrl}/app (API docs: ${this.server.appUrl}/docs).\n`;
    } else {
      const link = await this.members.firstOwnerLink(account.id);
      owner =
        `Become its first owner (a person who signs in with an email and a password), once, within 7 days:\n\n` +
        `    ${link}\n\n`;
    }
    if (this.config.initialApiKey !== undefined) {
      this.logger.log(`Created account ${account.id} with the key from INITIAL_API_KEY`);
      process.stderr.write(`\n${owner}\n`);
      return;
    }
    // Printed once, for the person starting the server: on stderr, beside the server's other messages, and not
    // through the log, whose JSON lines on stdout may be parsed and shipped elsewhere.
    process.stderr.write(firstKeyMessage(account, issued.apiKey, this.server.appUrl) + owner + '\n');
  }
}

/** The first key, once, with what a newcomer does next: sign in to the dashboard, or make another key. */
export function firstKeyMessage(
  account: { id: number; name: string },
  apiKey: string,
  appUrl: string,
): string {
  return (
    `\nCreated account ${account.id} ("${account.name}"). Its API key, shown only this once:\n\n` +
    `    ${apiKey}\n\n` +
    `Sign in with it at ${appUrl}/app, or send it to the API as "Authorization: Bearer <key>" (${appUrl}/docs).\n` +
    `Lost it? Make another: npm run cli -- key:create --account ${account.id}\n\n`
  );
}

/** The first start, for the HTTP server only: the CLI's commands make no account of their own accord. */
@Module({ imports: [AuthModule, PeopleModule], providers: [FirstStartService] })
export class FirstStartModule {}
