import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { authConfig, type AuthConfig } from '../config/app-config';
import { AccountsService } from './accounts.service';

/** Makes the first account on the first start, so that a fresh install can be used at once. */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapService.name);

  constructor(
    private readonly accounts: AccountsService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
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
    process.stderr.write(
      `\nCreated account ${issued.account.id} ("${issued.account.name}"). Its API key, shown only this once:\n\n` +
        `    ${issued.apiKey}\n\n`,
    );
  }
}
