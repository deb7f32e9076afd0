import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import { LOGO_MAX_BYTES, LOGO_TYPES, type LogoType } from './logo-file';
import type { LogoSummary } from './qr-logos.service';

/** A logo as kept: what it is, never its bytes. */
export class QrLogoResponse {
  @ApiProperty({ type: 'string', enum: [...LOGO_TYPES], example: 'image/png' })
  content_type!: LogoType;

  @ApiInteger({
    minimum: 1,
    maximum: LOGO_MAX_BYTES,
    example: 4096,
    description: 'The file’s size in bytes.',
  })
  bytes!: number;

  @ApiProperty({
    type: 'string',
    pattern: '^[0-9a-f]{64}$',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    description: 'The SHA-256 of the file, in hex: the same file uploaded again has the same.',
  })
  sha256!: string;

  @ApiDateTime()
  updated_at!: string;
}

export function toQrLogoResponse(logo: LogoSummary): QrLogoResponse {
  return {
    content_type: logo.contentType,
    bytes: logo.bytes,
    sha256: logo.digest,
    updated_at: isoDate(logo.updatedAt),
  };
}

/** The body of a logo's upload, as the document describes it: the file itself, whichever of the two types. */
export const QR_LOGO_BODY = {
  description: 'The image file itself, with its media type as the Content-Type.',
  schema: { type: 'string', format: 'binary' },
} as const;
