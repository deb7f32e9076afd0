import { Global, Module } from '@nestjs/common';
import { serverConfig, type ServerConfig } from '../config/app-config';
import { createLog } from './logger';

/** The process's structured log (pino), for Nest's logger and the request log alike. */
export const APP_LOG = Symbol('APP_LOG');

@Global()
@Module({
  providers: [
    { provide: APP_LOG, inject: [serverConfig.KEY], useFactory: (config: ServerConfig) => createLog(config) },
  ],
  exports: [APP_LOG],
})
export class LoggingModule {}
