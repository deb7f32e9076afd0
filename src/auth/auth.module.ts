import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Transactions } from '../database/transactions';
import { Account } from './account.entity';
import { ApiKey } from './api-key.entity';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeyGuard } from './api-key.guard';
import { ApiThrottlerGuard } from './api-throttler.guard';
import { BearerStrategy } from './bearer.strategy';
import { RequestAccount } from './request-account';

@Module({
  imports: [PassportModule.register({ session: false }), TypeOrmModule.forFeature([Account, ApiKey])],
  providers: [AccountsService, AccountsRepository, Transactions, BearerStrategy, RequestAccount],
  exports: [AccountsService, RequestAccount],
})
export class AuthModule {}

/**
 * Accounts and keys as the HTTP server uses them: every route guarded (rate limit first, so that refused keys are
 * counted and every API response has the headers; then the key). The first start's account is people/'s.
 * The CLI imports {@link AuthModule} alone: its commands make no account of their own accord.
 */
@Module({
  imports: [AuthModule],
  providers: [
    { provide: APP_GUARD, useClass: ApiThrottlerGuard },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
  ],
})
export class AuthServerModule {}
