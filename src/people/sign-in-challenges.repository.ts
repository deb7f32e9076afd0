import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import { SignInChallenge } from './sign-in-challenge.entity';

/** Challenges taken this many at a time when one is made, so that expired ones never pile up. */
const PRUNE_STEP = 100;

/** The challenges and states sign-ins wait on between their two requests (passkeys, single sign-on). */
@Injectable()
export class SignInChallengesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Keeps a challenge until `expiresAt`; its id. Removes a few that have expired. */
  async put(fields: Omit<SignInChallenge, 'id' | 'user'>): Promise<number> {
    await this.dataSource.query(
      `DELETE FROM sign_in_challenges WHERE id IN (
         SELECT id FROM sign_in_challenges WHERE expires_at < now() ORDER BY expires_at LIMIT ${PRUNE_STEP})`,
    );
    const saved = await this.dataSource.getRepository(SignInChallenge).save(fields);
    return saved.id;
  }

  /** Takes a live challenge of `kind` (by id, or by its value), once: it is deleted as it is read. */
  async take(
    kind: SignInChallenge['kind'],
    where: { id: number } | { challenge: string },
  ): Promise<SignInChallenge | null> {
    const [column, value] = 'id' in where ? ['id', where.id] : ['challenge', where.challenge];
    const rows = await returnedRows<{
      id: number;
      challenge: string;
      verifier: string | null;
      user_id: number | null;
    }>(
      this.dataSource.query(
        `DELETE FROM sign_in_challenges WHERE ${column} = $1 AND kind = $2 AND expires_at > now()
         RETURNING id, challenge, verifier, user_id`,
        [value, kind],
      ),
    );
    const [row] = rows;
    if (row === undefined) return null;
    return Object.assign(new SignInChallenge(), {
      id: row.id,
      kind,
      challenge: row.challenge,
      verifier: row.verifier,
      userId: row.user_id,
    });
  }
}
