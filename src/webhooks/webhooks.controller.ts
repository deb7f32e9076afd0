import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
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
import {
  CreateWebhookDto,
  DeliveryListQueryDto,
  UpdateWebhookDto,
  WebhookListQueryDto,
} from './dto/webhook.dto';
import { DeliveryResponse, WebhookResponse, WebhookWithSecretResponse } from './webhook.mapper';
import { WebhooksService } from './webhooks.service';

const UPDATE: Omit<EndpointOptions, 'operationId' | 'summary'> = {
  description: 'Fields that are absent stay as they are. A new `url` is checked as on create.',
  body: true,
  errors: [404],
};

@ApiTags('webhooks')
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @ApiEndpoint({ operationId: 'listWebhooks', summary: 'List webhooks', errors: [422] })
  @ApiListResponse(WebhookResponse)
  @Get()
  @RequiresScope('webhooks.read')
  async list(@CurrentOwner() owner: Owner, @Query() query: WebhookListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.webhooks.list(owner, query));
  }

  @ApiEndpoint({ operationId: 'showWebhook', summary: 'Show a webhook', errors: [404] })
  @ApiDataResponse(WebhookResponse)
  @Get(':id')
  @RequiresScope('webhooks.read')
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.webhooks.show(owner, id));
  }

  @ApiEndpoint({
    operationId: 'createWebhook',
    summary: 'Create a webhook',
    description: 'The answer alone holds its signing secret (`secret`).',
    body: true,
  })
  @ApiDataResponse(WebhookWithSecretResponse, { status: 201 })
  @Post()
  @RequiresScope('webhooks.write')
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateWebhookDto) {
    return dataEnvelope(await this.webhooks.create(owner, dto));
  }

  @ApiEndpoint({ operationId: 'updateWebhook', summary: 'Update a webhook', ...UPDATE })
  @ApiDataResponse(WebhookResponse)
  @Put(':id')
  @RequiresScope('webhooks.write')
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateWebhookDto) {
    return this.updated(owner, id, dto);
  }

  @ApiEndpoint({ operationId: 'patchWebhook', summary: 'Update a webhook (PATCH)', ...UPDATE })
  @ApiDataResponse(WebhookResponse)
  @Patch(':id')
  @RequiresScope('webhooks.write')
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateWebhookDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateWebhookDto) {
    return dataEnvelope(await this.webhooks.update(owner, id, dto));
  }

  @ApiEndpoint({ operationId: 'deleteWebhook', summary: 'Delete a webhook', errors: [404] })
  @ApiDeletedResponse('webhook')
  @Delete(':id')
  @HttpCode(200)
  @RequiresScope('webhooks.write')
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.webhooks.remove(owner, id);
    return deletedEnvelope(id, 'webhook');
  }

  @ApiEndpoint({
    operationId: 'rotateWebhookSecret',
    summary: 'Give a webhook a new secret',
    description: 'The old secret signs nothing from now on. The answer alone holds the new one.',
    errors: [404],
  })
  @ApiDataResponse(WebhookWithSecretResponse)
  @Post(':id/secret')
  @HttpCode(200)
  @RequiresScope('webhooks.write')
  async rotate(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.webhooks.rotateSecret(owner, id));
  }

  @ApiEndpoint({
    operationId: 'listWebhookDeliveries',
    summary: 'A webhook’s delivery log',
    description: 'Every attempt, newest first.',
    errors: [404, 422],
  })
  @ApiListResponse(DeliveryResponse)
  @Get(':id/deliveries')
  @RequiresScope('webhooks.read')
  async deliveries(
    @CurrentOwner() owner: Owner,
    @Param('id', IdPipe) id: number,
    @Query() query: DeliveryListQueryDto,
    @Req() request: Request,
  ) {
    return paginatedEnvelope(request, query.pageRequest(), await this.webhooks.deliveryLog(owner, id, query));
  }

  @ApiEndpoint({
    operationId: 'testWebhook',
    summary: 'Send a webhook a ping',
    description:
      'A `ping` event, sent at once and once, whatever the webhook takes; the answer is its attempt.',
    errors: [404],
  })
  @ApiDataResponse(DeliveryResponse)
  @Post(':id/test')
  @HttpCode(200)
  @RequiresScope('webhooks.write')
  async test(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.webhooks.ping(owner, id));
  }
}
