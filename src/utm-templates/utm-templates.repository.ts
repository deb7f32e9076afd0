import { Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { AccountRows } from '../database/account-rows.repository';
import type { ListColumns } from '../database/list';
import type { UtmTemplateListQueryDto } from './dto/utm-template-list-query.dto';
import { UtmTemplate } from './utm-template.entity';

const UTM_TEMPLATE_COLUMNS: ListColumns<'name', 'id' | 'name'> = {
  search: { name: 'template.name' },
  sort: { name: 'lower(template.name)' },
};

/** An account's saved UTM templates. */
@Injectable()
export class UtmTemplatesRepository extends AccountRows(UtmTemplate, {
  kind: QuotaKind.UtmTemplates,
  table: 'utm_templates',
  noun: 'UTM templates',
}) {
  /** A page of the account's templates and their total: every one, whatever spaces the owner is restricted to. */
  async list({ accountId }: Owner, query: UtmTemplateListQueryDto): Promise<Page<UtmTemplate>> {
    const builder = this.rows
      .createQueryBuilder('template')
      .where('template.account_id = :accountId', { accountId });
    return this.page(builder, UTM_TEMPLATE_COLUMNS, query);
  }

  async findOwned({ accountId }: Owner, id: number): Promise<UtmTemplate | null> {
    return this.rows.findOneBy({ id, accountId });
  }

  /** Whether the account's template was there to delete. */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.changed((rows) => rows.delete({ id, accountId }));
    return (result.affected ?? 0) > 0;
  }
}
