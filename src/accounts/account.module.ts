import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { AccountController } from './account.controller';

/** `GET /api/v1/account`: apart from auth/, which the CLI uses without domains or HTTP. */
@Module({
  imports: [DomainsModule],
  controllers: [AccountController],
})
export class AccountModule {}
