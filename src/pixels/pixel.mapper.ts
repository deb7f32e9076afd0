import { isoDate } from '../common/dates';
import type { Pixel } from './pixel.entity';

export interface PixelResponse {
  id: number;
  name: string;
  type: string;
  value: string;
  created_at: string;
  updated_at: string;
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
