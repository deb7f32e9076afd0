import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { resourceRoutes } from '../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { UtmTemplateListQueryDto } from './dto/utm-template-list-query.dto';
import { CreateUtmTemplateDto, UpdateUtmTemplateDto, UTM_TEMPLATE_EXAMPLES } from './dto/utm-template.dto';
import { UtmTemplateResponse } from './utm-template.mapper';
import { UtmTemplatesService } from './utm-templates.service';

/** Templates are link metadata: `links.read` reads them and `links.write` changes them, with no scope of their own. */
const routes = resourceRoutes({
  scopes: 'links',
  id: 'UtmTemplate',
  one: 'a UTM template',
  many: 'UTM templates',
  response: UtmTemplateResponse,
  object: 'utm_template',
  examples: UTM_TEMPLATE_EXAMPLES,
});

@ApiTags('utm-templates')
@Controller('api/v1/utm-templates')
export class UtmTemplatesController {
  constructor(private readonly templates: UtmTemplatesService) {}

  @routes.list()
  async list(@CurrentOwner() owner: Owner, @Query() query: UtmTemplateListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.templates.list(owner, query));
  }

  @routes.show()
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.templates.show(owner, id));
  }

  @routes.create()
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateUtmTemplateDto) {
    return dataEnvelope(await this.templates.create(owner, dto));
  }

  @routes.replace()
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateUtmTemplateDto) {
    return this.updated(owner, id, dto);
  }

  @routes.patch()
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateUtmTemplateDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateUtmTemplateDto) {
    return dataEnvelope(await this.templates.update(owner, id, dto));
  }

  @routes.remove()
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.templates.remove(owner, id);
    return deletedEnvelope(id, 'utm_template');
  }
}
