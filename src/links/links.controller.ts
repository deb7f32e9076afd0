import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { LinkListQueryDto } from './dto/link-list-query.dto';
import { CreateLinkDto, UpdateLinkDto } from './dto/link.dto';
import { LinksService } from './links.service';

@ApiTags('links')
@ApiBearerAuth()
@Controller('api/v1/links')
export class LinksController {
  constructor(private readonly links: LinksService) {}

  @Get()
  async list(@CurrentAccount() account: Account, @Query() query: LinkListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.links.list(account.id, query));
  }

  @Get(':id')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.links.show(account.id, id));
  }

  @Post()
  async store(@CurrentAccount() account: Account, @Body() dto: CreateLinkDto) {
    return dataEnvelope(await this.links.create(account.id, dto));
  }

  @Put(':id')
  async replace(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateLinkDto,
  ) {
    return dataEnvelope(await this.links.update(account.id, id, dto));
  }

  @Patch(':id')
  async update(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateLinkDto,
  ) {
    return dataEnvelope(await this.links.update(account.id, id, dto));
  }

  @Delete(':id')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.links.remove(account.id, id);
    return deletedEnvelope(id, 'link');
  }
}
