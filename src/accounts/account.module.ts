import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains/domains.module';
import { QrModule } from '../qr/qr.module';
import { AccountQrLogoController } from './account-qr-logo.controller';
import { AccountController } from './account.controller';

/** `GET /api/v1/account` and the workspace's QR logo: apart from auth/, which the CLI uses without domains or HTTP. */
@Module({
  imports: [DomainsModule, QrModule],
  controllers: [AccountController, AccountQrLogoController],
})
export class AccountModule {}
