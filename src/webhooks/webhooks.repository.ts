import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type SelectQueryBuilder } from 'typeorm';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { listed, type ListColumns } from '../database/list';
import { QuotaRepository, rowQuota } from '../database/quota.repository';
import type { WebhookListQueryDto } from './dto/webhook.dto';
import { Webhook } from './webhook.entity';

const WEBHOOK_COLUMNS: ListColumns<'name' | 'url', 'id' | 'name'> = {
  search: { name: 'webhook.name', url: 'webhook.url' },
  sort: { name: 'lower(webhook.name)' },
};

/** An account's webhooks; their delivery log is {@link WebhookAttempts}'. */
@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectRepository(Webhook) private readonly webhooks: Repository<Webhook>,
    private readonly quotas: QuotaRepository,
  ) {}

  /** A page of the account's webhooks and their total. */
  async list(accountId: number, query: WebhookListQueryDto): Promise<Page<Webhook>> {
    const [items, total] = await listed(this.owned(accountId), WEBHOOK_COLUMNS, query).getManyAndCount();
    return { items, total };
  }

  async findOwned(accountId: number, id: number): Promise<Webhook | null> {
    return this.owned(accountId).andWhere('webhook.id = :id', { id }).getOne();
  }

  /** Makes the webhook unless the account would hold more than `limit` (0: none): the quota's 422. */
  async createWithinQuota(
    fields: Omit<Webhook, 'id' | 'createdAt' | 'updatedAt'>,
    limit: number,
  ): Promise<Webhook> {
    const webhook = this.webhooks.create(fields);
    await this.quotas.saveWithin(webhook, rowQuota(QuotaKind.Webhooks, limit, 'webhooks'), fields.accountId);
    return webhook;
  }

  async update(accountId: number, id: number, changes: Partial<Webhook>): Promise<void> {
    await this.webhooks.update({ id, accountId }, changes);
  }

  async delete(accountId: number, id: number): Promise<void> {
    await this.webhooks.delete({ id, accountId });
  }

  private owned(accountId: number): SelectQueryBuilder<Webhook> {
    return this.webhooks
      .createQueryBuilder('webhook')
      .where('webhook.account_id = :accountId', { accountId });
  }
}
