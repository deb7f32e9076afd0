import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { resourceRoutes } from '../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { TagListQueryDto } from './dto/tag-list-query.dto';
import { CreateTagDto, TAG_EXAMPLES, UpdateTagDto } from './dto/tag.dto';
import { TagResponse } from './tag.mapper';
import { TagsService } from './tags.service';

// Tags are the links' own labels: reading them needs `links.read`, changing them `links.write` (contract §9 has no
// scopes of their own).
const routes = resourceRoutes({
  scopes: 'links',
  id: 'Tag',
  one: 'a tag',
  many: 'tags',
  response: TagResponse,
  object: 'tag',
  examples: TAG_EXAMPLES,
});

@ApiTags('tags')
@Controller('api/v1/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @routes.list()
  async list(@CurrentOwner() owner: Owner, @Query() query: TagListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.tags.list(owner, query));
  }

  @routes.show()
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.tags.show(owner, id));
  }

  @routes.create()
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateTagDto) {
    return dataEnvelope(await this.tags.create(owner, dto));
  }

  @routes.replace()
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateTagDto) {
    return this.updated(owner, id, dto);
  }

  @routes.patch()
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateTagDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateTagDto) {
    return dataEnvelope(await this.tags.update(owner, id, dto));
  }

  @routes.remove()
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.tags.remove(owner, id);
    return deletedEnvelope(id, 'tag');
  }
}
