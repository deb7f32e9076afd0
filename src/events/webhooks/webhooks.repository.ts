import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { QuotaKind } from '../../common/account-quota';
import type { Page } from '../../common/pagination';
import { AccountRows } from '../../database/account-rows.repository';
import type { ListColumns } from '../../database/list';
import type { WebhookListQueryDto } from './dto/webhook.dto';
import { Webhook } from './webhook.entity';

const WEBHOOK_COLUMNS: ListColumns<'name' | 'url', 'id' | 'name'> = {
  search: { name: 'webhook.name', url: 'webhook.url' },
  sort: { name: 'lower(webhook.name)' },
};

/** An account's webhooks; their delivery log is {@link WebhookAttempts}'. */
@Injectable()
export class WebhooksRepository extends AccountRows(Webhook, {
  kind: QuotaKind.Webhooks,
  table: 'webhooks',
}) {
  /** A page of the account's webhooks and their total. */
  async list(accountId: number, query: WebhookListQueryDto): Promise<Page<Webhook>> {
    return this.page(this.owned(accountId), WEBHOOK_COLUMNS, query);
  }

  async findOwned(accountId: number, id: number): Promise<Webhook | null> {
    return this.owned(accountId).andWhere('webhook.id = :id', { id }).getOne();
  }

  async update(accountId: number, id: number, changes: Partial<Webhook>): Promise<void> {
    await this.changed((rows) => rows.update({ id, accountId }, changes));
  }

  async delete(accountId: number, id: number): Promise<void> {
    await this.changed((rows) => rows.delete({ id, accountId }));
  }

  private owned(accountId: number): SelectQueryBuilder<Webhook> {
    return this.rows.createQueryBuilder('webhook').where('webhook.account_id = :accountId', { accountId });
  }
}
