import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import type { Pixel } from './pixel.entity';
import { PIXEL_TYPES } from './pixel-types';

/** A pixel, as the API answers it. */
export class PixelResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Ads' })
  name!: string;

  @ApiProperty({ type: 'string', enum: [...PIXEL_TYPES], enumName: 'PixelType' })
  type!: string;

  @ApiProperty({ type: 'string', example: 'GTM-ABC123' })
  value!: string;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
}

export function toPixelResponse(pixel: Pixel): PixelResponse {
  return {
    id: pixel.id,
    name: pixel.name,
    type: pixel.type,
    value: pixel.value,
    created_at: isoDate(pixel.createdAt),
    updated_at: isoDate(pixel.updatedAt),
  };
}
