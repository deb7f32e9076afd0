import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import type { Page, PageRequest } from '../common/pagination';
import type { Transaction } from '../database/transactions';
import { Invitation } from './invitation.entity';

/** Invitations to a workspace, by the hash of their token. */
@Injectable()
export class InvitationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(
    fields: Pick<Invitation, 'accountId' | 'email' | 'role' | 'tokenHash' | 'expiresAt'>,
    tx: Transaction,
  ): Promise<Invitation> {
    return tx.getRepository(Invitation).save(tx.create(Invitation, { ...fields, endedAt: null }));
  }

  /** The workspace's pending invitations (not ended, not expired), newest first. */
  async pending(accountId: number, request: PageRequest): Promise<Page<Invitation>> {
    const [items, total] = await this.dataSource.getRepository(Invitation).findAndCount({
      where: { accountId, endedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      order: { id: 'DESC' },
      skip: (request.page - 1) * request.perPage,
      take: request.perPage,
    });
    return { items, total };
  }

  async findPending(accountId: number, id: number): Promise<Invitation | null> {
    return this.dataSource
      .getRepository(Invitation)
      .findOneBy({ id, accountId, endedAt: IsNull(), expiresAt: MoreThan(new Date()) });
  }

  /**
   * Ends a pending invitation (accepted or revoked), by id or by its token's hash: the one update that ends it, so
   * that two requests cannot both use it. The invitation, or null when none was pending.
   */
  async end(where: { id: number } | { tokenHash: string }, tx: Transaction): Promise<Invitation | null> {
    const rows = await tx.getRepository(Invitation).find({
      where: { ...where, endedAt: IsNull(), expiresAt: MoreThan(new Date()) },
    });
    const invitation = rows[0];
    if (invitation === undefined) return null;
    const result = await tx
      .getRepository(Invitation)
      .update({ id: invitation.id, endedAt: IsNull() }, { endedAt: () => 'now()' });
    return (result.affected ?? 0) > 0 ? invitation : null;
  }
}
