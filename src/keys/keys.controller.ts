import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { resourceRoutes } from '../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { CreateKeyDto, KEY_EXAMPLES, KeyListQueryDto, UpdateKeyDto } from './dto/key.dto';
import { CreatedKeyResponse, KeyResponse } from './key.mapper';
import { KeysService } from './keys.service';

const routes = resourceRoutes({
  scopes: 'keys',
  id: 'Key',
  one: 'an API key',
  many: 'API keys',
  response: KeyResponse,
  object: 'key',
  update:
    'Fields that are absent stay as they are. The key after the change may do no more than the key making it.',
  examples: KEY_EXAMPLES,
});

@ApiTags('keys')
@Controller('api/v1/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @routes.list()
  async list(@CurrentCaller() caller: ApiCaller, @Query() query: KeyListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.keys.list(caller, query));
  }

  @routes.show()
  async show(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.keys.show(caller, id));
  }

  @routes.create({
    response: CreatedKeyResponse,
    description:
      'The answer alone holds the key itself (`key`). It may do no more than the key that makes it.',
  })
  async store(@CurrentCaller() caller: ApiCaller, @Body() dto: CreateKeyDto) {
    return dataEnvelope(await this.keys.create(caller, dto));
  }

  @routes.replace()
  replace(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number, @Body() dto: UpdateKeyDto) {
    return this.updated(caller, id, dto);
  }

  @routes.patch()
  update(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number, @Body() dto: UpdateKeyDto) {
    return this.updated(caller, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(caller: ApiCaller, id: number, dto: UpdateKeyDto) {
    return dataEnvelope(await this.keys.update(caller, id, dto));
  }

  @routes.remove({
    summary: 'Revoke an API key',
    description: 'Refused from its next request on, on every instance. A key may revoke itself.',
  })
  async destroy(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    await this.keys.remove(caller, id);
    return deletedEnvelope(id, 'key');
  }
}
