import { Injectable } from '@nestjs/common';
import type { FieldErrors } from '../common/exceptions';
import type { Transaction } from '../database/transactions';
import { toPixelResponse, type PixelResponse } from '../pixels/pixel.mapper';
import type { Pixel } from '../pixels/pixel.entity';
import { PixelsService } from '../pixels/pixels.service';
import { addError } from './link-rules';
import { LinkPixelsRepository } from './link-pixels.repository';

/**
 * The ids without repeats, given the account's pixels among them (`owned`); each one the account does not have is an
 * error under `pixel_ids.N`.
 */
export function checkPixels(
  owned: ReadonlyMap<number, Pixel>,
  pixelIds: number[],
  errors: FieldErrors,
): number[] {
  pixelIds.forEach((pixelId, index) => {
    if (!owned.has(pixelId)) addError(errors, `pixel_ids.${index}`, 'The selected pixel is invalid.');
  });
  return [...new Set(pixelIds)];
}

/** The pixels of links: which an account may attach, the join rows, and the pixels as responses show them. */
@Injectable()
export class LinkPixels {
  constructor(
    private readonly rows: LinkPixelsRepository,
    private readonly pixels: PixelsService,
  ) {}

  /** The ids without repeats; each one the account does not have is an error under `pixel_ids.N`. */
  async check(accountId: number, pixelIds: number[], errors: FieldErrors): Promise<number[]> {
    return checkPixels(await this.owned(accountId, pixelIds), pixelIds, errors);
  }

  /** The account's pixels among `pixelIds`, by id: one query for any number. */
  owned(accountId: number, pixelIds: number[]): Promise<Map<number, Pixel>> {
    return this.pixels.findOwned(accountId, pixelIds);
  }

  /** The link's pixels become exactly `pixelIds`, in `tx`. */
  replace(tx: Transaction, linkId: number, pixelIds: number[]): Promise<void> {
    return this.rows.replace(tx, linkId, pixelIds);
  }

  /** The pixels of each link, by link id, in pixel id order: one query for any number of links. */
  async byLink(linkIds: number[]): Promise<Map<number, PixelResponse[]>> {
    const byLink = new Map<number, PixelResponse[]>();
    if (linkIds.length === 0) return byLink;
    const rows = await this.rows.ofLinks(linkIds);
    for (const row of rows) {
      if (row.pixel === undefined) continue;
      const list = byLink.get(row.linkId) ?? [];
      list.push(toPixelResponse(row.pixel));
      byLink.set(row.linkId, list);
    }
    return byLink;
  }

  /** One link's pixels, for the page that loads them. */
  async of(linkId: number): Promise<PixelResponse[]> {
    return (await this.byLink([linkId])).get(linkId) ?? [];
  }
}
