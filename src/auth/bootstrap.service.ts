import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { authConfig, serverConfig, type AuthConfig, type ServerConfig } from '../config/app-config';
import { AccountsService } from './accounts.service';

/** Makes the first account on the first start, so that a fresh install can be used at once. */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapService.name);

  constructor(
    private readonly accounts: AccountsService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
    @Inject(serverConfig.KEY) private readonly server: ServerConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const issued = await this.accounts.bootstrap(this.config.initialApiKey);
    if (issued === null) return;
    if (this.config.initialApiKey !== undefined) {
      this.logger.log(`Created account ${issued.account.id} with the key from INITIAL_API_KEY`);
      return;
    }
    // Printed once, for the person starting the server: on stderr, beside the server's other messages, and not
    // through the log, whose JSON lines on stdout may be parsed and shipped elsewhere.
    process.stderr.write(firstKeyMessage(issued.account, issued.apiKey, this.server.appUrl));
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
