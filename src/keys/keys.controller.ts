import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentCaller } from '../auth/current-account.decorator';
import type { ApiCaller } from '../auth/owner';
import { RequiresScope } from '../auth/requires-scope.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import {
  ApiDataResponse,
  ApiDeletedResponse,
  ApiEndpoint,
  ApiListResponse,
  type EndpointOptions,
} from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { CreateKeyDto, KeyListQueryDto, UpdateKeyDto } from './dto/key.dto';
import { CreatedKeyResponse, KeyResponse } from './key.mapper';
import { KeysService } from './keys.service';

const UPDATE: Omit<EndpointOptions, 'operationId' | 'summary'> = {
  description:
    'Fields that are absent stay as they are. The key after the change may do no more than the key making it.',
  body: true,
  errors: [404],
};

@ApiTags('keys')
@Controller('api/v1/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @ApiEndpoint({ operationId: 'listKeys', summary: 'List API keys', errors: [422] })
  @ApiListResponse(KeyResponse)
  @Get()
  @RequiresScope('keys.read')
  async list(@CurrentCaller() caller: ApiCaller, @Query() query: KeyListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.keys.list(caller, query));
  }

  @ApiEndpoint({ operationId: 'showKey', summary: 'Show an API key', errors: [404] })
  @ApiDataResponse(KeyResponse)
  @Get(':id')
  @RequiresScope('keys.read')
  async show(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.keys.show(caller, id));
  }

  @ApiEndpoint({
    operationId: 'createKey',
    summary: 'Create an API key',
    description:
      'The answer alone holds the key itself (`key`). It may do no more than the key that makes it.',
    body: true,
  })
  @ApiDataResponse(CreatedKeyResponse, { status: 201 })
  @Post()
  @RequiresScope('keys.write')
  async store(@CurrentCaller() caller: ApiCaller, @Body() dto: CreateKeyDto) {
    return dataEnvelope(await this.keys.create(caller, dto));
  }

  @ApiEndpoint({ operationId: 'updateKey', summary: 'Update an API key', ...UPDATE })
  @ApiDataResponse(KeyResponse)
  @Put(':id')
  @RequiresScope('keys.write')
  replace(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number, @Body() dto: UpdateKeyDto) {
    return this.updated(caller, id, dto);
  }

  @ApiEndpoint({ operationId: 'patchKey', summary: 'Update an API key (PATCH)', ...UPDATE })
  @ApiDataResponse(KeyResponse)
  @Patch(':id')
  @RequiresScope('keys.write')
  update(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number, @Body() dto: UpdateKeyDto) {
    return this.updated(caller, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(caller: ApiCaller, id: number, dto: UpdateKeyDto) {
    return dataEnvelope(await this.keys.update(caller, id, dto));
  }

  @ApiEndpoint({
    operationId: 'deleteKey',
    summary: 'Revoke an API key',
    description: 'Refused from its next request on, on every instance. A key may revoke itself.',
    errors: [404],
  })
  @ApiDeletedResponse('key')
  @Delete(':id')
  @HttpCode(200)
  @RequiresScope('keys.write')
  async destroy(@CurrentCaller() caller: ApiCaller, @Param('id', IdPipe) id: number) {
    await this.keys.remove(caller, id);
    return deletedEnvelope(id, 'key');
  }
}
