import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Account } from './account.entity';
import { AccountsService } from './accounts.service';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly accounts: AccountsService) {
    super();
  }

  /** Passport turns `false` into a 401. */
  async validate(token: string): Promise<Account | false> {
    return (await this.accounts.findByApiKey(token)) ?? false;
  }
}
