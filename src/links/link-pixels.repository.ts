import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { Transaction } from '../database/transactions';
import { LinkPixel } from './link-pixel.entity';

/** The join rows of links and their pixels. */
@Injectable()
export class LinkPixelsRepository {
  constructor(@InjectRepository(LinkPixel) private readonly rows: Repository<LinkPixel>) {}

  /** The link's pixels become exactly `pixelIds`, in `tx`. */
  async replace(tx: Transaction, linkId: number, pixelIds: number[]): Promise<void> {
    await tx.delete(LinkPixel, { linkId });
    if (pixelIds.length > 0) {
      await tx.insert(
        LinkPixel,
        pixelIds.map((pixelId) => ({ linkId, pixelId })),
      );
    }
  }

  /** The rows of these links, each with its pixel, in pixel id order: one query for any number of links. */
  ofLinks(linkIds: number[]): Promise<LinkPixel[]> {
    return this.rows.find({
      where: { linkId: In(linkIds) },
      relations: { pixel: true },
      order: { pixelId: 'ASC' },
    });
  }
}
