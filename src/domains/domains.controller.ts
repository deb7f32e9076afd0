import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint, ApiListResponse } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { DomainResponse } from './domain.mapper';
import { DomainsService } from './domains.service';
import { DomainListQueryDto } from './dto/domain-list-query.dto';
import { CreateDomainDto, UpdateDomainDto } from './dto/domain.dto';
import { RequiresScope } from '../auth/requires-scope.decorator';

@ApiTags('domains')
@Controller('api/v1/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @ApiEndpoint({ operationId: 'listDomains', summary: 'List domains', errors: [422] })
  @ApiListResponse(DomainResponse)
  @Get()
  @RequiresScope('domains.read')
  async list(
    @CurrentAccount() account: Account,
    @Query() query: DomainListQueryDto,
    @Req() request: Request,
  ) {
    return paginatedEnvelope(request, query.pageRequest(), await this.domains.list(account.id, query));
  }

  @ApiEndpoint({ operationId: 'showDomain', summary: 'Show a domain', errors: [404] })
  @ApiDataResponse(DomainResponse)
  @Get(':id')
  @RequiresScope('domains.read')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.domains.show(account.id, id));
  }

  @ApiEndpoint({ operationId: 'createDomain', summary: 'Create a domain', body: true })
  @ApiDataResponse(DomainResponse, { status: 201 })
  @Post()
  @RequiresScope('domains.write')
  async store(@CurrentAccount() account: Account, @Body() dto: CreateDomainDto) {
    return dataEnvelope(await this.domains.create(account.id, dto));
  }

  @ApiEndpoint({
    operationId: 'updateDomain',
    summary: 'Update a domain',
    description: 'Fields that are absent stay as they are; PATCH does the same.',
    body: true,
    errors: [403, 404],
  })
  @ApiDataResponse(DomainResponse)
  @Put(':id')
  @RequiresScope('domains.write')
  replace(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdateDomainDto) {
    return this.updated(account, id, dto);
  }

  @ApiEndpoint({
    operationId: 'patchDomain',
    summary: 'Update a domain (PATCH)',
    description: 'The same as PUT: fields that are absent stay as they are.',
    body: true,
    errors: [403, 404],
  })
  @ApiDataResponse(DomainResponse)
  @Patch(':id')
  @RequiresScope('domains.write')
  update(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdateDomainDto) {
    return this.updated(account, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(account: Account, id: number, dto: UpdateDomainDto) {
    return dataEnvelope(await this.domains.update(account.id, id, dto));
  }

  @ApiEndpoint({ operationId: 'deleteDomain', summary: 'Delete a domain', errors: [403, 404, 409] })
  @ApiDeletedResponse('domain')
  @Delete(':id')
  @RequiresScope('domains.write')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.domains.remove(account.id, id);
    return deletedEnvelope(id, 'domain');
  }
}
