import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type SelectQueryBuilder } from 'typeorm';
import type { Owner } from '../auth/owner';
import { QuotaKind, rowQuota, saveWithinQuota } from '../common/account-quota';
import { ResourceNotFoundException, UnauthorizedActionException } from '../common/exceptions';
import type { Page } from '../common/pagination';
import { listed, type ListColumns } from '../common/list';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import type { SpaceListQueryDto } from './dto/space-list-query.dto';
import type { CreateSpaceDto, UpdateSpaceDto } from './dto/space.dto';
import { DEFAULT_SPACE_COLOR, Space } from './space.entity';
import { toSpaceResponse, type SpaceResponse } from './space.mapper';

const SPACE_COLUMNS: ListColumns<'name', 'id' | 'name'> = {
  search: { name: 'space.name' },
  sort: { name: 'lower(space.name)' },
};

@Injectable()
export class SpacesService {
  constructor(
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {}

  async list(owner: Owner, query: SpaceListQueryDto): Promise<Page<SpaceResponse>> {
    const builder = listed(this.owned(owner), SPACE_COLUMNS, query);
    const total = await builder.getCount();
    const spaces = await this.withLinksCount(await builder.getMany());
    return { items: spaces.map(toResponse), total };
  }

  async show(owner: Owner, id: number): Promise<SpaceResponse> {
    const builder = this.owned(owner).andWhere('space.id = :id', { id });
    const space = await builder.getOne();
    if (space === null) throw new ResourceNotFoundException();
    const [counted] = await this.withLinksCount([space]);
    return toResponse(counted);
  }

  /** A key restricted to spaces makes none: it could not see what it made. */
  async create(owner: Owner, dto: CreateSpaceDto): Promise<SpaceResponse> {
    if (owner.spaceIds !== null) throw new UnauthorizedActionException();
    const { accountId } = owner;
    const space = this.spaces.create({ accountId, name: dto.name, color: dto.color ?? DEFAULT_SPACE_COLOR });
    const quota = rowQuota(QuotaKind.Spaces, this.quotas.maxSpacesPerAccount, 'spaces');
    await saveWithinQuota(this.spaces, space, quota, accountId);
    return this.show(owner, space.id);
  }

  async update(owner: Owner, id: number, dto: UpdateSpaceDto): Promise<SpaceResponse> {
    const space = await this.find(owner, id);
    if (dto.name !== undefined) space.name = dto.name;
    if (dto.color !== undefined) space.color = dto.color;
    await this.spaces.save(space);
    return this.show(owner, id);
  }

  /** The links stay, without a space (ON DELETE SET NULL). */
  async remove(owner: Owner, id: number): Promise<void> {
    const space = await this.find(owner, id);
    const result = await this.spaces.delete({ id: space.id, accountId: owner.accountId });
    if ((result.affected ?? 0) === 0) throw new ResourceNotFoundException();
  }

  /** The responses of the account's spaces among `ids`, by id: for objects that embed their space. */
  async responsesByIds(accountId: number, ids: number[]): Promise<Map<number, SpaceResponse>> {
    if (ids.length === 0) return new Map();
    const builder = this.spaces
      .createQueryBuilder('space')
      .where('space.account_id = :accountId AND space.id IN (:...ids)', { accountId, ids });
    const spaces = await this.withLinksCount(await builder.getMany());
    return new Map(spaces.map((space) => [space.id, toResponse(space)]));
  }

  /** The owner's spaces among `ids` (within its restriction): ids it may file a link under, in one query. */
  async ownedIds(owner: Owner, ids: number[]): Promise<Set<number>> {
    const reachable = owner.spaceIds === null ? ids : ids.filter((id) => owner.spaceIds!.includes(id));
    if (reachable.length === 0) return new Set();
    const rows = await this.spaces.find({
      select: { id: true },
      where: { accountId: owner.accountId, id: In(reachable) },
    });
    return new Set(rows.map((space) => space.id));
  }

  /** One of the owner's spaces, or a 404 whether it does not exist, is another account's or beyond its reach. */
  async find(owner: Owner, id: number): Promise<Space> {
    const space = await this.owned(owner).andWhere('space.id = :id', { id }).getOne();
    if (space === null) throw new ResourceNotFoundException();
    return space;
  }

  /** The owner's spaces: the account's, within the key's restriction. */
  private owned(owner: Owner): SelectQueryBuilder<Space> {
    const builder = this.spaces
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
    const rows = await this.spaces.query<{ space_id: number; links: number }[]>(
      `SELECT space_id, sum(links)::int AS links FROM link_counts
        WHERE account_id = ANY($1::int[]) AND space_id = ANY($2::int[]) GROUP BY space_id`,
      [[...new Set(spaces.map((space) => space.accountId))], spaces.map((space) => space.id)],
    );
    const counts = new Map(rows.map((row) => [row.space_id, row.links]));
    for (const space of spaces) space.linksCount = counts.get(space.id) ?? 0;
    return spaces;
  }
}

function toResponse(space: Space): SpaceResponse {
  return toSpaceResponse(space, space.linksCount ?? 0);
}
