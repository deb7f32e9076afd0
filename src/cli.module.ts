import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';

/**
 * What the account and key commands need: no HTTP, and the embedded database shared with a running server.
 * An unreachable database fails the command at once instead of after TypeORM's retries (~25 s).
 */
@Module({
  imports: [AppConfigModule, DatabaseModule.forRoot({ shareEmbedded: true, retryAttempts: 0 }), AuthModule],
})
export class CliModule {}
