import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { QuotaKind, rowQuota, saveWithinQuota } from '../common/account-quota';
import { ResourceNotFoundException, ValidationFailedException } from '../common/exceptions';
import type { Page } from '../common/pagination';
import { listed, type ListColumns } from '../common/list';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import { ChangeFeed, EVERYTHING } from '../database/change-feed';
import type { PixelListQueryDto } from './dto/pixel-list-query.dto';
import type { CreatePixelDto, UpdatePixelDto } from './dto/pixel.dto';
import { Pixel } from './pixel.entity';
import { toPixelResponse, type PixelResponse } from './pixel.mapper';
import { isPixelType, pixelValueError } from './pixel-types';

const PIXEL_COLUMNS: ListColumns<'name' | 'value', 'id' | 'name'> = {
  search: { name: 'pixel.name', value: 'pixel.value' },
  sort: { name: 'lower(pixel.name)' },
};

@Injectable()
export class PixelsService {
  constructor(
    @InjectRepository(Pixel) private readonly pixels: Repository<Pixel>,
    private readonly feed: ChangeFeed,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {}

  async list(accountId: number, query: PixelListQueryDto): Promise<Page<PixelResponse>> {
    const builder = this.pixels
      .createQueryBuilder('pixel')
      .where('pixel.account_id = :accountId', { accountId });
    if (query.type !== undefined && query.type !== null)
      builder.andWhere('pixel.type = :type', { type: query.type });
    const [rows, total] = await listed(builder, PIXEL_COLUMNS, query).getManyAndCount();
    return { items: rows.map(toPixelResponse), total };
  }

  async show(accountId: number, id: number): Promise<PixelResponse> {
    return toPixelResponse(await this.find(accountId, id));
  }

  async create(accountId: number, dto: CreatePixelDto): Promise<PixelResponse> {
    assertValue(dto.type, dto.value);
    const pixel = this.pixels.create({ accountId, name: dto.name, type: dto.type, value: dto.value });
    const quota = rowQuota(QuotaKind.Pixels, this.quotas.maxPixelsPerAccount, 'pixels');
    await saveWithinQuota(this.pixels, pixel, quota, accountId);
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
    const result = await this.pixels.delete({ id, accountId });
    if ((result.affected ?? 0) === 0) throw new ResourceNotFoundException();
    // Links lost a pixel: rare enough to drop this instance's cache of links outright.
    this.feed.publish(EVERYTHING);
  }

  async find(accountId: number, id: number): Promise<Pixel> {
    const pixel = await this.pixels.findOneBy({ id, accountId });
    if (pixel === null) throw new ResourceNotFoundException();
    return pixel;
  }

  /** The account's pixels among `ids`, by id. */
  async findOwned(accountId: number, ids: number[]): Promise<Map<number, Pixel>> {
    if (ids.length === 0) return new Map();
    const rows = await this.pixels.findBy({ accountId, id: In(ids) });
    return new Map(rows.map((pixel) => [pixel.id, pixel]));
  }
}

function assertValue(type: string, value: string): void {
  if (!isPixelType(type)) throw ValidationFailedException.of('type', 'The selected type is invalid.');
  const error = pixelValueError(type, value);
  if (error !== null) throw ValidationFailedException.of('value', error);
}
