import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';

/** What the account and key commands need: no HTTP, and the embedded database shared with a running server. */
@Module({
  imports: [ConfigModule, DatabaseModule.forRoot({ shareEmbedded: true }), AuthModule],
})
export class CliModule {}
