import { Injectable } from '@nestjs/common';
import { Brackets, type SelectQueryBuilder } from 'typeorm';
import { ApiKey } from '../auth/api-key.entity';
import type { ApiCaller } from '../auth/owner';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { AccountRows } from '../database/account-rows.repository';
import type { ListColumns } from '../database/list';
import type { KeyListQueryDto } from './dto/key.dto';

const KEY_COLUMNS: ListColumns<'name' | 'prefix', 'id' | 'name' | 'last_used_at'> = {
  search: { name: 'key.name', prefix: 'key.prefix' },
  sort: { name: 'lower(key.name)', last_used_at: 'key.last_used_at' },
};

/** An account's API keys as its keys manage them; a key's lookup at every request is the accounts'. */
@Injectable()
export class KeysRepository extends AccountRows(ApiKey, {
  kind: QuotaKind.Keys,
  table: 'api_keys',
  noun: 'keys',
  // Revoked keys are kept, and count for nothing.
  where: 'revoked_at IS NULL',
}) {
  /** A page of the live keys the caller may see, and their total. */
  async list(caller: ApiCaller, query: KeyListQueryDto): Promise<Page<ApiKey>> {
    return this.page(this.visible(caller), KEY_COLUMNS, query);
  }

  /** A live key the caller may see, or null. */
  async findOwned(caller: ApiCaller, id: number): Promise<ApiKey | null> {
    return this.visible(caller).andWhere('key.id = :id', { id }).getOne();
  }

  async update(accountId: number, id: number, changes: Partial<ApiKey>): Promise<void> {
    await this.changed((rows) => rows.update({ id, accountId }, changes));
  }

  /** Revokes the key: the lookup of every request refuses it from then on. */
  async revoke(accountId: number, id: number): Promise<void> {
    await this.changed((rows) => rows.update({ id, accountId }, { revokedAt: () => 'now()' }));
  }

  /**
   * The account's live keys that the caller may see: all of them for a key without a restriction; for one
   * restricted to spaces, itself and the keys restricted to some of those spaces (it learns of no other space).
   */
  private visible(caller: ApiCaller): SelectQueryBuilder<ApiKey> {
    const builder = this.rows
      .createQueryBuilder('key')
      .where('key.account_id = :accountId AND key.revoked_at IS NULL', { accountId: caller.account.id });
    const spaceIds = caller.owner.spaceIds;
    if (spaceIds !== null) {
      builder.andWhere(
        new Brackets((within) =>
          within
            .where('key.id = :self', { self: caller.keyId })
            .orWhere('key.space_ids <@ :spaceIds::integer[]', { spaceIds }),
        ),
      );
    }
    return builder;
  }
}
