import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
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
  async list(@CurrentAccount() account: Account, @Query() query: SpaceListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.spaces.list(account.id, query));
  }

  @ApiEndpoint({ operationId: 'showSpace', summary: 'Show a space', errors: [404] })
  @ApiDataResponse(SpaceResponse)
  @Get(':id')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.spaces.show(account.id, id));
  }

  @ApiEndpoint({ operationId: 'createSpace', summary: 'Create a space', body: true })
  @ApiDataResponse(SpaceResponse, { status: 201 })
  @Post()
  async store(@CurrentAccount() account: Account, @Body() dto: CreateSpaceDto) {
    return dataEnvelope(await this.spaces.create(account.id, dto));
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
  async replace(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateSpaceDto,
  ) {
    return dataEnvelope(await this.spaces.update(account.id, id, dto));
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
  async update(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateSpaceDto,
  ) {
    return dataEnvelope(await this.spaces.update(account.id, id, dto));
  }

  @ApiEndpoint({ operationId: 'deleteSpace', summary: 'Delete a space', errors: [404] })
  @ApiDeletedResponse('space')
  @Delete(':id')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.spaces.remove(account.id, id);
    return deletedEnvelope(id, 'space');
  }
}
