import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { createLog } from './logger';

/** The process's structured log (pino), for Nest's logger and the request log alike. */
export const APP_LOG = Symbol('APP_LOG');

@Global()
@Module({
  providers: [
    { provide: APP_LOG, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createLog(config) },
  ],
  exports: [APP_LOG],
})
export class LoggingModule {}
