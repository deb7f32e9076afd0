import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountsService } from './accounts.service';
import { BearerStrategy } from './bearer.strategy';
import { RequestAccount } from './request-account';

@Module({
  imports: [PassportModule.register({ session: false })],
  providers: [AccountsService, BearerStrategy, RequestAccount],
  exports: [AccountsService, RequestAccount],
})
export class AuthModule {}
