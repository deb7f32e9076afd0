import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QrCodes } from './qr-code';
import { AccountQrLogo, LinkQrLogo } from './qr-logo.entity';
import { QrLogos } from './qr-logos.service';
import { QrLogosRepository } from './qr-logos.repository';

/** QR codes of short URLs, drawn once and kept for the API and the visitor routes alike, and the logos they draw. */
@Module({
  imports: [TypeOrmModule.forFeature([LinkQrLogo, AccountQrLogo])],
  providers: [QrCodes, QrLogos, QrLogosRepository],
  exports: [QrCodes, QrLogos],
})
export class QrModule {}
