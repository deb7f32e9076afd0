import { Inject, Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import { ResourceNotFoundException, UnauthorizedActionException } from '../common/exceptions';
import { Resources } from '../common/resources';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import type { SpaceListQueryDto } from './dto/space-list-query.dto';
import type { CreateSpaceDto, UpdateSpaceDto } from './dto/space.dto';
import { DEFAULT_SPACE_COLOR, type Space } from './space.entity';
import { toSpaceResponse, type SpaceResponse } from './space.mapper';
import { SpacesRepository } from './spaces.repository';

@Injectable()
export class SpacesService extends Resources<Space, SpaceResponse, SpaceListQueryDto, Owner> {
  constructor(
    private readonly spaces: SpacesRepository,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {
    super(spaces, toResponse);
  }

  /** A key restricted to spaces makes none: it could not see what it made. */
  async create(owner: Owner, dto: CreateSpaceDto): Promise<SpaceResponse> {
    if (owner.spaceIds !== null) throw new UnauthorizedActionException();
    const space = await this.spaces.createWithinQuota(
      { accountId: owner.accountId, name: dto.name, color: dto.color ?? DEFAULT_SPACE_COLOR },
      this.quotas.maxSpacesPerAccount,
    );
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
    if (!(await this.spaces.delete(owner.accountId, space.id))) throw new ResourceNotFoundException();
  }

  /** The responses of the account's spaces among `ids`, by id: for objects that embed their space. */
  async responsesByIds(accountId: number, ids: number[]): Promise<Map<number, SpaceResponse>> {
    if (ids.length === 0) return new Map();
    const spaces = await this.spaces.findByIds(accountId, ids);
    return new Map(spaces.map((space) => [space.id, toResponse(space)]));
  }

  /** The owner's spaces among `ids` (within its restriction): ids it may file a link under, in one query. */
  async ownedIds(owner: Owner, ids: number[]): Promise<Set<number>> {
    const reachable = owner.spaceIds === null ? ids : ids.filter((id) => owner.spaceIds!.includes(id));
    if (reachable.length === 0) return new Set();
    return new Set(await this.spaces.idsAmong(owner.accountId, reachable));
  }
}

function toResponse(space: Space): SpaceResponse {
  return toSpaceResponse(space, space.linksCount ?? 0);
}
