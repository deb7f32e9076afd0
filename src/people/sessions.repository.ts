import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import type { Transaction } from '../database/transactions';

/** A user's session as their sessions list shows it. */
export interface UserSessionRow {
  id: number;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  expires_at: Date;
  account_id: number;
}

/** Sessions expired this long ago are removed, a few at each sign-in: the lookup never takes them anyway. */
const PRUNE_STEP = 100;

/** The dashboard's sessions, by the hash of their token. The lookup of a request's session is the auth module's. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A session of a key, until `expiresAt` or the key's own expiry, whichever comes first; returns that end.
   * Removes a few sessions that have expired.
   */
  async create(keyId: number, tokenHash: string, expiresAt: Date): Promise<Date> {
    const [row] = await this.dataSource.query<{ expires_at: Date }[]>(
      `WITH pruned AS (
         DELETE FROM api_sessions WHERE id IN (
           SELECT id FROM api_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT ${PRUNE_STEP})
       )
       INSERT INTO api_sessions (token_hash, key_id, expires_at)
       SELECT $1, k.id, LEAST($3::timestamptz, k.expires_at) FROM api_keys k WHERE k.id = $2
       RETURNING expires_at`,
      [tokenHash, keyId, expiresAt],
    );
    return row.expires_at;
  }

  /** A user's session in one of their workspaces, until `expiresAt`; in `tx`, beside what the sign-in wrote. */
  async createForUser(
    fields: {
      secondFactor: boolean;
      userId: number;
      accountId: number;
      tokenHash: string;
      expiresAt: Date;
      ip: string | null;
      userAgent: string | null;
    },
    tx: Transaction,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO api_sessions (token_hash, user_id, account_id, expires_at, ip, user_agent, second_factor)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        fields.tokenHash,
        fields.userId,
        fields.accountId,
        fields.expiresAt,
        fields.ip,
        fields.userAgent?.slice(0, 255) ?? null,
        fields.secondFactor,
      ],
    );
  }

  /** Moves a user's session to another of their workspaces. */
  async switchWorkspace(id: number, accountId: number): Promise<void> {
    await this.dataSource.query('UPDATE api_sessions SET account_id = $2 WHERE id = $1', [id, accountId]);
  }

  /** A user's live sessions, the newest first. */
  async ofUser(userId: number): Promise<UserSessionRow[]> {
    return this.dataSource.query<UserSessionRow[]>(
      `SELECT s.id, s.ip, s.user_agent, s.created_at, s.expires_at, s.account_id
         FROM api_sessions s WHERE s.user_id = $1 AND s.expires_at > now() ORDER BY s.id DESC`,
      [userId],
    );
  }

  /** Ends one of a user's sessions; false when they have none of that id. */
  async removeOfUser(userId: number, id: number): Promise<boolean> {
    const rows = await returnedRows(
      this.dataSource.query('DELETE FROM api_sessions WHERE id = $1 AND user_id = $2 RETURNING id', [
        id,
        userId,
      ]),
    );
    return rows.length > 0;
  }

  /** Ends every session of a user but `keep` (the one that asked), in `tx`. */
  async removeAllOfUser(userId: number, keep: number | null, tx: Transaction): Promise<void> {
    await tx.query('DELETE FROM api_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, keep]);
  }

  async remove(id: number): Promise<void> {
    await this.dataSource.query('DELETE FROM api_sessions WHERE id = $1', [id]);
  }
}
