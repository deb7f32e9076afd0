import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { RequiresScope } from '../auth/requires-scope.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint, ApiListResponse } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { SpaceResponse } from './space.mapper';
import { SpaceListQueryDto } from './dto/space-list-query.dto';
import { CreateSpaceDto, UpdateSpaceDto } from './dto/space.dto';
import { SpacesService } from './spaces.service';

@ApiTags('spaces')
@Controller('api/v1/spaces')
export class SpacesController {
  constructor(private readonly spaces: SpacesService) {}

  @ApiEndpoint({ operationId: 'listSpaces', summary: 'List spaces', errors: [422] })
  @ApiListResponse(SpaceResponse)
  @Get()
  @RequiresScope('spaces.read')
  async list(@CurrentOwner() owner: Owner, @Query() query: SpaceListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.spaces.list(owner, query));
  }

  @ApiEndpoint({ operationId: 'showSpace', summary: 'Show a space', errors: [404] })
  @ApiDataResponse(SpaceResponse)
  @Get(':id')
  @RequiresScope('spaces.read')
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.spaces.show(owner, id));
  }

  @ApiEndpoint({ operationId: 'createSpace', summary: 'Create a space', body: true })
  @ApiDataResponse(SpaceResponse, { status: 201 })
  @Post()
  @RequiresScope('spaces.write')
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateSpaceDto) {
    return dataEnvelope(await this.spaces.create(owner, dto));
  }

  @ApiEndpoint({
    operationId: 'updateSpace',
    summary: 'Update a space',
    description: 'Fields that are absent stay as they are; PATCH does the same.',
    body: true,
    errors: [404],
  })
  @ApiDataResponse(SpaceResponse)
  @Put(':id')
  @RequiresScope('spaces.write')
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateSpaceDto) {
    return this.updated(owner, id, dto);
  }

  @ApiEndpoint({
    operationId: 'patchSpace',
    summary: 'Update a space (PATCH)',
    description: 'The same as PUT: fields that are absent stay as they are.',
    body: true,
    errors: [404],
  })
  @ApiDataResponse(SpaceResponse)
  @Patch(':id')
  @RequiresScope('spaces.write')
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateSpaceDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateSpaceDto) {
    return dataEnvelope(await this.spaces.update(owner, id, dto));
  }

  @ApiEndpoint({ operationId: 'deleteSpace', summary: 'Delete a space', errors: [404] })
  @ApiDeletedResponse('space')
  @Delete(':id')
  @RequiresScope('spaces.write')
  @HttpCode(200)
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.spaces.remove(owner, id);
    return deletedEnvelope(id, 'space');
  }
}
