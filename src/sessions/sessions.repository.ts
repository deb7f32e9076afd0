import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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

  async remove(id: number): Promise<void> {
    await this.dataSource.query('DELETE FROM api_sessions WHERE id = $1', [id]);
  }
}
