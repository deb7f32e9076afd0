import { Injectable } from '@nestjs/common';
import { In, type SelectQueryBuilder } from 'typeorm';
import type { Owner } from '../auth/owner';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { AccountRows } from '../database/account-rows.repository';
import { listed, type ListColumns } from '../database/list';
import type { SpaceListQueryDto } from './dto/space-list-query.dto';
import { Space } from './space.entity';

const SPACE_COLUMNS: ListColumns<'name', 'id' | 'name'> = {
  search: { name: 'space.name' },
  sort: { name: 'lower(space.name)' },
};

/** Spaces, each read with the number of links filed under it. */
@Injectable()
export class SpacesRepository extends AccountRows(Space, { kind: QuotaKind.Spaces, table: 'spaces' }) {
  /** A page of the owner's spaces and their total. */
  async list(owner: Owner, query: SpaceListQueryDto): Promise<Page<Space>> {
    const builder = listed(this.owned(owner), SPACE_COLUMNS, query);
    const total = await builder.getCount();
    return { items: await this.withLinksCount(await builder.getMany()), total };
  }

  /** One of the owner's spaces, with its links counted when asked; null beyond its reach. */
  async findOwned(owner: Owner, id: number, counted = false): Promise<Space | null> {
    const space = await this.owned(owner).andWhere('space.id = :id', { id }).getOne();
    if (space === null || !counted) return space;
    const [withCount] = await this.withLinksCount([space]);
    return withCount;
  }

  /** The account's spaces among `ids`, counted. */
  async findByIds(accountId: number, ids: number[]): Promise<Space[]> {
    const builder = this.rows
      .createQueryBuilder('space')
      .where('space.account_id = :accountId AND space.id IN (:...ids)', { accountId, ids });
    return this.withLinksCount(await builder.getMany());
  }

  /** The ids among `ids` of the account's spaces, in one query. */
  async idsAmong(accountId: number, ids: number[]): Promise<number[]> {
    const rows = await this.rows.find({ select: { id: true }, where: { accountId, id: In(ids) } });
    return rows.map((space) => space.id);
  }

  /** Whether the account's space was there to delete. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.changed((rows) => rows.delete({ id, accountId }));
    return (result.affected ?? 0) > 0;
  }

  /** The owner's spaces: the account's, within the key's restriction. */
  private owned(owner: Owner): SelectQueryBuilder<Space> {
    const builder = this.rows
      .createQueryBuilder('space')
      .where('space.account_id = :accountId', { accountId: owner.accountId });
    if (owner.spaceIds !== null) builder.andWhere('space.id = ANY(:spaceIds)', { spaceIds: owner.spaceIds });
    return builder;
  }

  /**
   * The spaces, each with the number of links filed under it, from `link_counts`: the counts the link triggers keep
   * per account, space, domain and disabled, in the transaction of every change (see the link-lists migration).
   * Counting the links themselves read every link of the spaces: 34 ms a page for an account of a million links
   * in three spaces, paid by every list of links, since each link embeds its space.
   */
  private async withLinksCount(spaces: Space[]): Promise<Space[]> {
    if (spaces.length === 0) return spaces;
    const rows = await this.rows.query<{ space_id: number; links: number }[]>(
      `SELECT space_id, sum(links)::int AS links FROM link_counts
        WHERE account_id = ANY($1::int[]) AND space_id = ANY($2::int[]) GROUP BY space_id`,
      [[...new Set(spaces.map((space) => space.accountId))], spaces.map((space) => space.id)],
    );
    const counts = new Map(rows.map((row) => [row.space_id, row.links]));
    for (const space of spaces) space.linksCount = counts.get(space.id) ?? 0;
    return spaces;
  }
}
