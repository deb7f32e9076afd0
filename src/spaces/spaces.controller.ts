import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { SpaceListQueryDto } from './dto/space-list-query.dto';
import { CreateSpaceDto, UpdateSpaceDto } from './dto/space.dto';
import { SpacesService } from './spaces.service';

@ApiTags('spaces')
@ApiBearerAuth()
@Controller('api/v1/spaces')
export class SpacesController {
  constructor(private readonly spaces: SpacesService) {}

  @Get()
  async list(@CurrentAccount() account: Account, @Query() query: SpaceListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.spaces.list(account.id, query));
  }

  @Get(':id')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.spaces.show(account.id, id));
  }

  @Post()
  async store(@CurrentAccount() account: Account, @Body() dto: CreateSpaceDto) {
    return dataEnvelope(await this.spaces.create(account.id, dto));
  }

  @Put(':id')
  async replace(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateSpaceDto,
  ) {
    return dataEnvelope(await this.spaces.update(account.id, id, dto));
  }

  @Patch(':id')
  async update(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateSpaceDto,
  ) {
    return dataEnvelope(await this.spaces.update(account.id, id, dto));
  }

  @Delete(':id')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.spaces.remove(account.id, id);
    return deletedEnvelope(id, 'space');
  }
}
