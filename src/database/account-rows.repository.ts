import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type DeepPartial, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { listed, type ListColumns, type ListRequest } from './list';
import { QuotaRepository, rowQuota, type CountedQuota } from './quota.repository';
import type { Transaction } from './transactions';

/** A row an account holds: spaces, domains, pixels, keys, webhooks. */
interface AccountRow extends ObjectLiteral {
  id: number;
  accountId: number | null;
}

/** The quota of a kind of row: its kind, its table, and what counts (every row of the account unless `where`). */
export interface RowQuota {
  kind: QuotaKind;
  table: string;
  noun?: string;
  where?: string;
}

/**
 * What the repositories of an account's rows share: a page of a query, searched, sorted and paged as a list request
 * asks; a create within the account's quota; a save. Each repository states its own conditions (the account, a
 * key's restriction, its filters) and its own SQL beside them.
 */
export abstract class AccountRowsRepository<T extends AccountRow> {
  protected constructor(
    protected readonly rows: Repository<T>,
    protected readonly quotas: QuotaRepository,
    private readonly quota: RowQuota,
  ) {}

  /** A page of what `builder` selects, as `request` asks, and the total it pages through. */
  protected async page<SearchBy extends string, SortBy extends string>(
    builder: SelectQueryBuilder<T>,
    columns: ListColumns<SearchBy, SortBy>,
    request: ListRequest<SearchBy, SortBy>,
  ): Promise<Page<T>> {
    const [items, total] = await listed(builder, columns, request).getManyAndCount();
    return { items, total };
  }

  /** Makes the row unless its account would hold more than `limit` (0: none): the quota's 422. */
  async createWithinQuota(fields: DeepPartial<T> & { accountId: number }, limit: number): Promise<T> {
    const row = this.rows.create(fields);
    await this.quotas.saveWithin(row, this.counted(limit), fields.accountId);
    return row;
  }

  /** Refuses, in `tx` just before it commits, a change that leaves the account more than `limit` rows. */
  async checkQuota(tx: Transaction, limit: number, accountId: number): Promise<void> {
    await this.quotas.check(tx, this.counted(limit), accountId);
  }

  async save(row: T): Promise<void> {
    await this.rows.save(row);
  }

  /**
   * A change of rows in a transaction of its own, which names its actor to the database first, so that the audit
   * log records it (audit/): a bare update or delete would run outside any transaction and go unrecorded.
   */
  protected changed<R>(work: (rows: Repository<T>) => Promise<R>): Promise<R> {
    return this.rows.manager.transaction((manager) => work(manager.getRepository<T>(this.rows.target)));
  }

  private counted(limit: number): CountedQuota {
    const { kind, table, noun, where } = this.quota;
    return rowQuota(kind, limit, table, { noun, where });
  }
}

/**
 * The base of the repository of one kind of an account's rows, wired: `class PixelsRepository extends
 * AccountRows(Pixel, { kind: QuotaKind.Pixels, table: 'pixels' })` gets the entity's ORM repository as `this.rows`
 * and the quota's checks, without a constructor of its own.
 */
export function AccountRows<T extends AccountRow>(entity: new () => T, quota: RowQuota) {
  @Injectable()
  abstract class Rows extends AccountRowsRepository<T> {
    constructor(@InjectRepository(entity) rows: Repository<T>, quotas: QuotaRepository) {
      super(rows, quotas, quota);
    }
  }
  return Rows;
}
