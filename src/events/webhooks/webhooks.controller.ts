import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../../auth/current-account.decorator';
import type { Owner } from '../../auth/owner';
import { resourceRoutes, ScopedRoute } from '../../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../../common/envelope';
import { IdPipe } from '../../common/id.pipe';
import { ApiDataResponse, ApiListResponse } from '../../common/openapi';
import { paginatedEnvelope } from '../../common/pagination';
import {
  CreateWebhookDto,
  DeliveryListQueryDto,
  UpdateWebhookDto,
  WEBHOOK_EXAMPLES,
  WebhookListQueryDto,
} from './dto/webhook.dto';
import { DeliveryResponse, WebhookResponse, WebhookWithSecretResponse } from './webhook.mapper';
import { WebhooksService } from './webhooks.service';

const routes = resourceRoutes({
  scopes: 'webhooks',
  id: 'Webhook',
  one: 'a webhook',
  many: 'webhooks',
  response: WebhookResponse,
  object: 'webhook',
  update: 'Fields that are absent stay as they are. A new `url` is checked as on create.',
  examples: WEBHOOK_EXAMPLES,
});

@ApiTags('webhooks')
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @routes.list()
  async list(@CurrentOwner() owner: Owner, @Query() query: WebhookListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.webhooks.list(owner, query));
  }

  @routes.show()
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.webhooks.show(owner, id));
  }

  @routes.create({
    response: WebhookWithSecretResponse,
    description: 'The answer alone holds its signing secret (`secret`).',
  })
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateWebhookDto) {
    return dataEnvelope(await this.webhooks.create(owner, dto));
  }

  @routes.replace()
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateWebhookDto) {
    return this.updated(owner, id, dto);
  }

  @routes.patch()
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateWebhookDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateWebhookDto) {
    return dataEnvelope(await this.webhooks.update(owner, id, dto));
  }

  @routes.remove()
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.webhooks.remove(owner, id);
    return deletedEnvelope(id, 'webhook');
  }

  @ScopedRoute('webhooks.write', Post(':id/secret'), {
    operationId: 'rotateWebhookSecret',
    summary: 'Give a webhook a new secret',
    description: 'The old secret signs nothing from now on. The answer alone holds the new one.',
    errors: [404],
  })
  @ApiDataResponse(WebhookWithSecretResponse)
  @HttpCode(200)
  async rotate(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.webhooks.rotateSecret(owner, id));
  }

  @ScopedRoute('webhooks.read', Get(':id/deliveries'), {
    operationId: 'listWebhookDeliveries',
    summary: 'A webhook’s delivery log',
    description: 'Every attempt, newest first.',
    errors: [404, 422],
  })
  @ApiListResponse(DeliveryResponse)
  async deliveries(
    @CurrentOwner() owner: Owner,
    @Param('id', IdPipe) id: number,
    @Query() query: DeliveryListQueryDto,
    @Req() request: Request,
  ) {
    return paginatedEnvelope(request, query.pageRequest(), await this.webhooks.deliveryLog(owner, id, query));
  }

  @ScopedRoute('webhooks.write', Post(':id/test'), {
    operationId: 'testWebhook',
    summary: 'Send a webhook a ping',
    description:
      'A `ping` event, sent at once and once, whatever the webhook takes; the answer is its attempt.',
    errors: [404],
  })
  @ApiDataResponse(DeliveryResponse)
  @HttpCode(200)
  async test(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.webhooks.ping(owner, id));
  }
}
