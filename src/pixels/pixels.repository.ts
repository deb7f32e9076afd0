import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { AccountRows } from '../database/account-rows.repository';
import type { ListColumns } from '../database/list';
import type { PixelListQueryDto } from './dto/pixel-list-query.dto';
import { Pixel } from './pixel.entity';

const PIXEL_COLUMNS: ListColumns<'name' | 'value', 'id' | 'name'> = {
  search: { name: 'pixel.name', value: 'pixel.value' },
  sort: { name: 'lower(pixel.name)' },
};

/** An account's tracking pixels. */
@Injectable()
export class PixelsRepository extends AccountRows(Pixel, { kind: QuotaKind.Pixels, table: 'pixels' }) {
  /** A page of the account's pixels, of one type when the query names it, and their total. */
  async list(accountId: number, query: PixelListQueryDto): Promise<Page<Pixel>> {
    const builder = this.rows
      .createQueryBuilder('pixel')
      .where('pixel.account_id = :accountId', { accountId });
    if (query.type !== undefined && query.type !== null)
      builder.andWhere('pixel.type = :type', { type: query.type });
    return this.page(builder, PIXEL_COLUMNS, query);
  }

  async findOwned(accountId: number, id: number): Promise<Pixel | null> {
    return this.rows.findOneBy({ id, accountId });
  }

  /** The account's pixels among `ids`. */
  async findByIds(accountId: number, ids: number[]): Promise<Pixel[]> {
    return this.rows.findBy({ accountId, id: In(ids) });
  }

  /** Whether the account's pixel was there to delete. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.changed((rows) => rows.delete({ id, accountId }));
    return (result.affected ?? 0) > 0;
  }
}
