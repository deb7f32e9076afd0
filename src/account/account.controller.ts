import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope } from '../common/envelope';
import { DomainsService } from '../domains/domains.service';
import { toAccountResponse } from './account.mapper';

@ApiTags('account')
@ApiBearerAuth()
@Controller('api/v1/account')
export class AccountController {
  constructor(private readonly domains: DomainsService) {}

  /** phpShort's account fields, each a real value or null where this service has no such thing. */
  @Get()
  async show(@CurrentAccount() account: Account) {
    const defaultDomain = await this.domains.defaultDomain();
    return dataEnvelope(toAccountResponse(account, defaultDomain.id));
  }
}
