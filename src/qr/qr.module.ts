import { Module } from '@nestjs/common';
import { QrCodes } from './qr-code';

/** QR codes of short URLs, drawn once and kept for the API and the visitor routes alike. */
@Module({ providers: [QrCodes], exports: [QrCodes] })
export class QrModule {}
