import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { DomainResponse } from './domain.mapper';
import { DomainsService } from './domains.service';
import { DomainListQueryDto } from './dto/domain-list-query.dto';
import { CreateDomainDto, DOMAIN_EXAMPLES, UpdateDomainDto } from './dto/domain.dto';
import { resourceRoutes } from '../auth/resource-route';

const routes = resourceRoutes({
  scopes: 'domains',
  id: 'Domain',
  one: 'a domain',
  many: 'domains',
  response: DomainResponse,
  object: 'domain',
  examples: DOMAIN_EXAMPLES,
});

@ApiTags('domains')
@Controller('api/v1/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @routes.list()
  async list(
    @CurrentAccount() account: Account,
    @Query() query: DomainListQueryDto,
    @Req() request: Request,
  ) {
    return paginatedEnvelope(request, query.pageRequest(), await this.domains.list(account.id, query));
  }

  @routes.show()
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.domains.show(account.id, id));
  }

  @routes.create()
  async store(@CurrentAccount() account: Account, @Body() dto: CreateDomainDto) {
    return dataEnvelope(await this.domains.create(account.id, dto));
  }

  @routes.replace({ errors: [403, 404] })
  replace(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdateDomainDto) {
    return this.updated(account, id, dto);
  }

  @routes.patch({ errors: [403, 404] })
  update(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdateDomainDto) {
    return this.updated(account, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(account: Account, id: number, dto: UpdateDomainDto) {
    return dataEnvelope(await this.domains.update(account.id, id, dto));
  }

  @routes.remove({ errors: [403, 404, 409] })
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.domains.remove(account.id, id);
    return deletedEnvelope(id, 'domain');
  }
}
