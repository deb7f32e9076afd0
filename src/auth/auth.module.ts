import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountController } from './account.controller';
import { AccountsService } from './accounts.service';
import { BearerStrategy } from './bearer.strategy';

@Module({
  imports: [PassportModule.register({ session: false })],
  controllers: [AccountController],
  providers: [AccountsService, BearerStrategy],
  exports: [AccountsService],
})
export class AuthModule {}
