import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { listed, type ListColumns } from '../database/list';
import { QuotaRepository, rowQuota } from '../database/quota.repository';
import type { PixelListQueryDto } from './dto/pixel-list-query.dto';
import { Pixel } from './pixel.entity';

const PIXEL_COLUMNS: ListColumns<'name' | 'value', 'id' | 'name'> = {
  search: { name: 'pixel.name', value: 'pixel.value' },
  sort: { name: 'lower(pixel.name)' },
};

/** An account's tracking pixels. */
@Injectable()
export class PixelsRepository {
  constructor(
    @InjectRepository(Pixel) private readonly pixels: Repository<Pixel>,
    private readonly quotas: QuotaRepository,
  ) {}

  /** A page of the account's pixels, of one type when the query names it, and their total. */
  async list(accountId: number, query: PixelListQueryDto): Promise<Page<Pixel>> {
    const builder = this.pixels
      .createQueryBuilder('pixel')
      .where('pixel.account_id = :accountId', { accountId });
    if (query.type !== undefined && query.type !== null)
      builder.andWhere('pixel.type = :type', { type: query.type });
    const [items, total] = await listed(builder, PIXEL_COLUMNS, query).getManyAndCount();
    return { items, total };
  }

  async findOwned(accountId: number, id: number): Promise<Pixel | null> {
    return this.pixels.findOneBy({ id, accountId });
  }

  /** The account's pixels among `ids`. */
  async findByIds(accountId: number, ids: number[]): Promise<Pixel[]> {
    return this.pixels.findBy({ accountId, id: In(ids) });
  }

  /** Makes the pixel unless the account would hold more than `limit` (0: none): the quota's 422. */
  async createWithinQuota(
    fields: Pick<Pixel, 'accountId' | 'name' | 'type' | 'value'>,
    limit: number,
  ): Promise<Pixel> {
    const pixel = this.pixels.create(fields);
    await this.quotas.saveWithin(pixel, rowQuota(QuotaKind.Pixels, limit, 'pixels'), fields.accountId);
    return pixel;
  }

  async save(pixel: Pixel): Promise<void> {
    await this.pixels.save(pixel);
  }

  /** Whether the account's pixel was there to delete. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.pixels.delete({ id, accountId });
    return (result.affected ?? 0) > 0;
  }
}
