import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope } from '../common/envelope';
import { ApiDataResponse } from '../common/openapi';
import { DomainsService } from '../domains/domains.service';
import { AccountResponse, toAccountResponse } from './account.mapper';
import { ScopedRoute } from '../auth/resource-route';

@ApiTags('account')
@Controller('api/v1/account')
export class AccountController {
  constructor(private readonly domains: DomainsService) {}

  /** phpShort's account fields, each a real value or null where this service has no such thing. */
  @ScopedRoute('account.read', Get(), { operationId: 'showAccount', summary: 'The account of the API key' })
  @ApiDataResponse(AccountResponse)
  async show(@CurrentAccount() account: Account) {
    const defaultDomain = await this.domains.defaultDomain();
    return dataEnvelope(toAccountResponse(account, defaultDomain.id));
  }
}
