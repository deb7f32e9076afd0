import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Role } from '../auth/roles';
import type { Page, PageRequest } from '../common/pagination';
import type { Transaction } from '../database/transactions';
import { Membership } from './membership.entity';

/** A member as the members list shows them. */
export interface MemberRow {
  user_id: number;
  name: string;
  email: string;
  role: Role;
  joined_at: Date;
  last_sign_in_at: Date | null;
  two_factor: boolean;
}

/** A workspace of a user, as the sign-in lists them. */
export interface WorkspaceRow {
  id: number;
  name: string;
  role: Role;
  /** Whether the workspace requires a second factor of its members' sign-ins. */
  require_two_factor: boolean;
}

/** Memberships: who belongs to which workspace, with what role. */
@Injectable()
export class MembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(
    accountId: number,
    userId: number,
    tx: Transaction = this.dataSource.manager,
  ): Promise<Membership | null> {
    return tx.getRepository(Membership).findOneBy({ accountId, userId });
  }

  /** Adds a membership, or leaves an existing one as it is; whether one was added. */
  async add(accountId: number, userId: number, role: Role, tx: Transaction): Promise<boolean> {
    const rows = await tx.query<unknown[]>(
      `INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, user_id) DO NOTHING RETURNING user_id`,
      [accountId, userId, role],
    );
    return rows.length > 0;
  }

  async setRole(accountId: number, userId: number, role: Role, tx: Transaction): Promise<void> {
    await tx.getRepository(Membership).update({ accountId, userId }, { role });
  }

  /** Removes a membership and the user's sessions in that workspace, at once. */
  async remove(accountId: number, userId: number, tx: Transaction): Promise<void> {
    await tx.query('DELETE FROM api_sessions WHERE user_id = $1 AND account_id = $2', [userId, accountId]);
    await tx.getRepository(Membership).delete({ accountId, userId });
  }

  /**
   * Locks the workspace's owners until `tx` ends and counts them: two requests that each demote or remove a
   * different owner cannot leave none.
   */
  async lockOwners(accountId: number, tx: Transaction): Promise<number> {
    const rows = await tx.query<unknown[]>(
      `SELECT user_id FROM memberships WHERE account_id = $1 AND role = 'owner' FOR UPDATE`,
      [accountId],
    );
    return rows.length;
  }

  async page(accountId: number, request: PageRequest): Promise<Page<MemberRow>> {
    const [items, [{ total }]] = await Promise.all([
      this.dataSource.query<MemberRow[]>(
        `SELECT u.id AS user_id, u.name, u.email, m.role, m.created_at AS joined_at,
                (u.totp_secret IS NOT NULL) AS two_factor,
                (SELECT max(s.created_at) FROM api_sessions s WHERE s.user_id = u.id) AS last_sign_in_at
           FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.account_id = $1
          ORDER BY m.created_at, u.id
          LIMIT $2 OFFSET $3`,
        [accountId, request.perPage, (request.page - 1) * request.perPage],
      ),
      this.dataSource.query<{ total: number }[]>(
        'SELECT count(*)::int AS total FROM memberships WHERE account_id = $1',
        [accountId],
      ),
    ]);
    return { items, total };
  }

  async member(accountId: number, userId: number): Promise<MemberRow | null> {
    const [row] = await this.dataSource.query<MemberRow[]>(
      `SELECT u.id AS user_id, u.name, u.email, m.role, m.created_at AS joined_at,
              (u.totp_secret IS NOT NULL) AS two_factor,
              (SELECT max(s.created_at) FROM api_sessions s WHERE s.user_id = u.id) AS last_sign_in_at
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1 AND m.user_id = $2`,
      [accountId, userId],
    );
    return row ?? null;
  }

  /** A user's workspaces, the first joined first. */
  async workspacesOf(userId: number, tx: Transaction = this.dataSource.manager): Promise<WorkspaceRow[]> {
    return tx.query<WorkspaceRow[]>(
      `SELECT a.id, a.name, m.role, a.require_two_factor FROM memberships m JOIN accounts a ON a.id = m.account_id
        WHERE m.user_id = $1 ORDER BY m.created_at, a.id`,
      [userId],
    );
  }
}
