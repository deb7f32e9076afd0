import { Global, Module } from '@nestjs/common';
import { loadConfig } from './app-config';

/** Injection token of the validated {@link AppConfig}. */
export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({
  providers: [{ provide: APP_CONFIG, useFactory: () => loadConfig() }],
  exports: [APP_CONFIG],
})
export class AppConfigModule {}
