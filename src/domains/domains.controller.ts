import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { DomainsService } from './domains.service';
import { DomainListQueryDto } from './dto/domain-list-query.dto';
import { CreateDomainDto, UpdateDomainDto } from './dto/domain.dto';

@ApiTags('domains')
@ApiBearerAuth()
@Controller('api/v1/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  async list(
    @CurrentAccount() account: Account,
    @Query() query: DomainListQueryDto,
    @Req() request: Request,
  ) {
    return paginatedEnvelope(request, query.pageRequest(), await this.domains.list(account.id, query));
  }

  @Get(':id')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.domains.show(account.id, id));
  }

  @Post()
  async store(@CurrentAccount() account: Account, @Body() dto: CreateDomainDto) {
    return dataEnvelope(await this.domains.create(account.id, dto));
  }

  @Put(':id')
  async replace(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateDomainDto,
  ) {
    return dataEnvelope(await this.domains.update(account.id, id, dto));
  }

  @Patch(':id')
  async update(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateDomainDto,
  ) {
    return dataEnvelope(await this.domains.update(account.id, id, dto));
  }

  @Delete(':id')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.domains.remove(account.id, id);
    return deletedEnvelope(id, 'domain');
  }
}
