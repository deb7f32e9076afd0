import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { dataEnvelope } from '../common/envelope';
import type { Account } from './account.entity';
import { CurrentAccount } from './current-account.decorator';

@ApiTags('account')
@ApiBearerAuth()
@Controller('api/v1/account')
export class AccountController {
  @Get()
  show(@CurrentAccount() account: Account) {
    return dataEnvelope({ id: account.id, name: account.name, created_at: isoDate(account.createdAt) });
  }
}
