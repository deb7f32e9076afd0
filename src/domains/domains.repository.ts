import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { AccountRows } from '../database/account-rows.repository';
import type { ListColumns } from '../database/list';
import { Domain } from './domain.entity';
import type { DomainListQueryDto } from './dto/domain-list-query.dto';

/** Domain names are stored in lower case: they sort as they are. */
const DOMAIN_COLUMNS: ListColumns<'name', 'id' | 'name'> = {
  search: { name: 'domain.name' },
  sort: { name: 'domain.name' },
};

/** The domains an account may put links on: its own and the system domains. */
function usableByAccount(accountId: number): Brackets {
  return new Brackets((where) =>
    where.where('domain.account_id = :accountId', { accountId }).orWhere('domain.account_id IS NULL'),
  );
}

/** Domains: the system's (no account) and the accounts' own. */
@Injectable()
export class DomainsRepository extends AccountRows(Domain, { kind: QuotaKind.Domains, table: 'domains' }) {
  /** Makes the system domain `name` unless it is there: idempotent, and safe when replicas start together. */
  async ensureSystemDomain(name: string): Promise<void> {
    await this.rows.createQueryBuilder().insert().values({ name, accountId: null }).orIgnore().execute();
  }

  /** The domain of this (canonical) name, or null. */
  async findByName(name: string): Promise<Domain | null> {
    return this.rows.findOneBy({ name });
  }

  /** The domain of this name, which must be there (the system domain, made at start). */
  async findByNameOrFail(name: string): Promise<Domain> {
    return this.rows.findOneByOrFail({ name });
  }

  /** A domain the account may put links on, or null. */
  async usableBy(accountId: number, id: number): Promise<Domain | null> {
    return this.rows
      .createQueryBuilder('domain')
      .where('domain.id = :id', { id })
      .andWhere(usableByAccount(accountId))
      .getOne();
  }

  /** The domains among `ids` that the account may put links on, in one query. */
  async usableByIds(accountId: number, ids: number[]): Promise<Domain[]> {
    return this.rows
      .createQueryBuilder('domain')
      .where('domain.id IN (:...ids)', { ids })
      .andWhere(usableByAccount(accountId))
      .getMany();
  }

  async findByIds(ids: number[]): Promise<Domain[]> {
    return this.rows.createQueryBuilder('domain').whereInIds(ids).getMany();
  }

  /** A page of the domains the account may use, and their total. */
  async list(accountId: number, query: DomainListQueryDto): Promise<Page<Domain>> {
    const builder = this.rows.createQueryBuilder('domain').where(usableByAccount(accountId));
    return this.page(builder, DOMAIN_COLUMNS, query);
  }

  /** Whether any link is on the domain. */
  async hasLinks(id: number): Promise<boolean> {
    return this.rows
      .createQueryBuilder('domain')
      .innerJoin('domain.links', 'link')
      .where('domain.id = :id', { id })
      .getExists();
  }

  async delete(id: number): Promise<void> {
    await this.changed((rows) => rows.delete({ id }));
  }
}
