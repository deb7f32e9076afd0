import { Inject, Injectable } from '@nestjs/common';
import { ResourceNotFoundException, ValidationFailedException } from '../common/exceptions';
import { Resources } from '../common/resources';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import { ChangeFeed, EVERYTHING } from '../database/change-feed';
import type { PixelListQueryDto } from './dto/pixel-list-query.dto';
import type { CreatePixelDto, UpdatePixelDto } from './dto/pixel.dto';
import type { Pixel } from './pixel.entity';
import { toPixelResponse, type PixelResponse } from './pixel.mapper';
import { isPixelType, pixelValueError } from './pixel-types';
import { PixelsRepository } from './pixels.repository';

@Injectable()
export class PixelsService extends Resources<Pixel, PixelResponse, PixelListQueryDto, number> {
  constructor(
    private readonly pixels: PixelsRepository,
    private readonly feed: ChangeFeed,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {
    super(pixels, toPixelResponse);
  }

  async create(accountId: number, dto: CreatePixelDto): Promise<PixelResponse> {
    assertValue(dto.type, dto.value);
    const pixel = await this.pixels.createWithinQuota(
      { accountId, name: dto.name, type: dto.type, value: dto.value },
      this.quotas.maxPixelsPerAccount,
    );
    return toPixelResponse(pixel);
  }

  async update(accountId: number, id: number, dto: UpdatePixelDto): Promise<PixelResponse> {
    const pixel = await this.find(accountId, id);
    if (dto.name !== undefined) pixel.name = dto.name;
    if (dto.type !== undefined) pixel.type = dto.type;
    if (dto.value !== undefined) pixel.value = dto.value;
    if (dto.type !== undefined || dto.value !== undefined) assertValue(pixel.type, pixel.value);
    await this.pixels.save(pixel);
    return toPixelResponse(pixel);
  }

  async remove(accountId: number, id: number): Promise<void> {
    if (!(await this.pixels.delete(accountId, id))) throw new ResourceNotFoundException();
    // Links lost a pixel: rare enough to drop this instance's cache of links outright.
    this.feed.publish(EVERYTHING);
  }

  /** The account's pixels among `ids`, by id. */
  async findOwned(accountId: number, ids: number[]): Promise<Map<number, Pixel>> {
    if (ids.length === 0) return new Map();
    const rows = await this.pixels.findByIds(accountId, ids);
    return new Map(rows.map((pixel) => [pixel.id, pixel]));
  }
}

function assertValue(type: string, value: string): void {
  if (!isPixelType(type)) throw ValidationFailedException.of('type', 'The selected type is invalid.');
  const error = pixelValueError(type, value);
  if (error !== null) throw ValidationFailedException.of('value', error);
}
