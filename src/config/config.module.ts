import { ConfigModule } from '@nestjs/config';
import { CONFIG_SECTIONS } from './app-config';

/**
 * The settings, each group injected by its key (`@Inject(clicksConfig.KEY)`) and typed (`ClicksConfig`). Read from
 * the environment alone: an operator's `.env` file is the container's or the shell's business, not the service's.
 */
export const AppConfigModule = ConfigModule.forRoot({
  isGlobal: true,
  ignoreEnvFile: true,
  load: [...CONFIG_SECTIONS],
});
