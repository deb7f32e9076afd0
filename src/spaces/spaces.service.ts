import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type SelectQueryBuilder } from 'typeorm';
import { QuotaKind, rowQuota, saveWithinQuota } from '../common/account-quota';
import { ResourceNotFoundException } from '../common/exceptions';
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

  async list(accountId: number, query: SpaceListQueryDto): Promise<Page<SpaceResponse>> {
    const builder = listed(
      this.spaces.createQueryBuilder('space').where('space.account_id = :accountId', { accountId }),
      SPACE_COLUMNS,
      query,
    );
    const total = await builder.getCount();
    const spaces = await this.withLinksCount(builder).getMany();
    return { items: spaces.map(toResponse), total };
  }

  async show(accountId: number, id: number): Promise<SpaceResponse> {
    const builder = this.spaces
      .createQueryBuilder('space')
      .where('space.id = :id AND space.account_id = :accountId', { id, accountId });
    const space = await this.withLinksCount(builder).getOne();
    if (space === null) throw new ResourceNotFoundException();
    return toResponse(space);
  }

  async create(accountId: number, dto: CreateSpaceDto): Promise<SpaceResponse> {
    const space = this.spaces.create({ accountId, name: dto.name, color: dto.color ?? DEFAULT_SPACE_COLOR });
    const quota = rowQuota(QuotaKind.Spaces, this.quotas.maxSpacesPerAccount, 'spaces');
    await saveWithinQuota(this.spaces, space, quota, accountId);
    return this.show(accountId, space.id);
  }

  async update(accountId: number, id: number, dto: UpdateSpaceDto): Promise<SpaceResponse> {
    const space = await this.find(accountId, id);
    if (dto.name !== undefined) space.name = dto.name;
    if (dto.color !== undefined) space.color = dto.color;
    await this.spaces.save(space);
    return this.show(accountId, id);
  }

  /** The links stay, without a space (ON DELETE SET NULL). */
  async remove(accountId: number, id: number): Promise<void> {
    const result = await this.spaces.delete({ id, accountId });
    if ((result.affected ?? 0) === 0) throw new ResourceNotFoundException();
  }

  /** The responses of the account's spaces among `ids`, by id: for objects that embed their space. */
  async responsesByIds(accountId: number, ids: number[]): Promise<Map<number, SpaceResponse>> {
    if (ids.length === 0) return new Map();
    const builder = this.spaces
      .createQueryBuilder('space')
      .where('space.account_id = :accountId AND space.id IN (:...ids)', { accountId, ids });
    const spaces = await this.withLinksCount(builder).getMany();
    return new Map(spaces.map((space) => [space.id, toResponse(space)]));
  }

  /** Whether the account has this space: an id it may file a link under. */
  async owns(accountId: number, id: number): Promise<boolean> {
    return this.spaces.existsBy({ id, accountId });
  }

  /** The account's spaces among `ids`: one query for any number. */
  async ownedIds(accountId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.spaces.find({ select: { id: true }, where: { accountId, id: In(ids) } });
    return new Set(rows.map((space) => space.id));
  }

  /** One of the account's spaces, or a 404 whether it does not exist or belongs to another account. */
  async find(accountId: number, id: number): Promise<Space> {
    const space = await this.spaces.findOneBy({ id, accountId });
    if (space === null) throw new ResourceNotFoundException();
    return space;
  }

  private withLinksCount(builder: SelectQueryBuilder<Space>): SelectQueryBuilder<Space> {
    return builder.loadRelationCountAndMap('space.linksCount', 'space.links');
  }
}

function toResponse(space: Space): SpaceResponse {
  return toSpaceResponse(space, space.linksCount ?? 0);
}
