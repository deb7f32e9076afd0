import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { resourceRoutes } from '../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { SpaceResponse } from './space.mapper';
import { SpaceListQueryDto } from './dto/space-list-query.dto';
import { CreateSpaceDto, SPACE_EXAMPLES, UpdateSpaceDto } from './dto/space.dto';
import { SpacesService } from './spaces.service';

const routes = resourceRoutes({
  scopes: 'spaces',
  id: 'Space',
  one: 'a space',
  many: 'spaces',
  response: SpaceResponse,
  object: 'space',
  examples: SPACE_EXAMPLES,
});

@ApiTags('spaces')
@Controller('api/v1/spaces')
export class SpacesController {
  constructor(private readonly spaces: SpacesService) {}

  @routes.list()
  async list(@CurrentOwner() owner: Owner, @Query() query: SpaceListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.spaces.list(owner, query));
  }

  @routes.show()
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.spaces.show(owner, id));
  }

  @routes.create()
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateSpaceDto) {
    return dataEnvelope(await this.spaces.create(owner, dto));
  }

  @routes.replace()
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateSpaceDto) {
    return this.updated(owner, id, dto);
  }

  @routes.patch()
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateSpaceDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateSpaceDto) {
    return dataEnvelope(await this.spaces.update(owner, id, dto));
  }

  @routes.remove()
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.spaces.remove(owner, id);
    return deletedEnvelope(id, 'space');
  }
}
