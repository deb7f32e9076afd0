import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import type { ApiCaller } from '../auth/owner';
import { UnauthorizedActionException } from '../common/exceptions';
import type { Transaction } from '../database/transactions';
import { PasswordReset } from './password-reset.entity';
import { User } from './user.entity';

/** Users and their password resets. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(id: number, tx: Transaction = this.dataSource.manager): Promise<User | null> {
    return tx.getRepository(User).findOneBy({ id });
  }

  /** The user of a person's session; a key (no person) is refused, as is a user gone meanwhile. */
  async ofCaller(caller: ApiCaller): Promise<User> {
    const user = caller.user === null ? null : await this.findById(caller.user.id);
    if (user === null) throw new UnauthorizedActionException();
    return user;
  }

  /** By email, as stored: in lower case. */
  async findByEmail(email: string, tx: Transaction = this.dataSource.manager): Promise<User | null> {
    return tx.getRepository(User).findOneBy({ email });
  }

  async insert(
    fields: Pick<User, 'name' | 'email' | 'passwordHash'>,
    tx: Transaction = this.dataSource.manager,
  ): Promise<User> {
    return tx.getRepository(User).save(tx.create(User, fields));
  }

  async save(user: User, tx: Transaction = this.dataSource.manager): Promise<User> {
    return tx.getRepository(User).save(user);
  }

  async insertReset(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.dataSource.getRepository(PasswordReset).insert({ userId, tokenHash, expiresAt, usedAt: null });
  }

  /**
   * Uses a live reset (not used, not expired) by its token's hash: the one update that marks it used, so that two
   * requests with one token cannot both pass. Its user's id, or null.
   */
  async useReset(tokenHash: string, tx: Transaction): Promise<number | null> {
    const reset = await tx.getRepository(PasswordReset).findOneBy({
      tokenHash,
      usedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
    if (reset === null) return null;
    const result = await tx
      .getRepository(PasswordReset)
      .update({ id: reset.id, usedAt: IsNull() }, { usedAt: () => 'now()' });
    return (result.affected ?? 0) > 0 ? reset.userId : null;
  }

  async setPendingTotp(userId: number, secret: string): Promise<void> {
    await this.dataSource.getRepository(User).update({ id: userId }, { totpPendingSecret: secret });
  }

  /** Turns two-factor on with the confirmed secret, the step of the code that confirmed it, and the codes' hashes. */
  async enableTotp(
    userId: number,
    secret: string,
    step: number,
    codes: string[],
    tx: Transaction,
  ): Promise<void> {
    await tx
      .getRepository(User)
      .update(
        { id: userId },
        { totpSecret: secret, totpPendingSecret: null, totpLastStep: String(step), recoveryCodes: codes },
      );
  }

  async disableTotp(userId: number, tx: Transaction): Promise<void> {
    await tx
      .getRepository(User)
      .update(
        { id: userId },
        { totpSecret: null, totpPendingSecret: null, totpLastStep: null, recoveryCodes: [] },
      );
  }

  async setRecoveryCodes(userId: number, codes: string[]): Promise<void> {
    await this.dataSource.getRepository(User).update({ id: userId }, { recoveryCodes: codes });
  }

  /** Uses up a recovery code by its hash, in one conditional update; whether the user held it. */
  async useRecoveryCode(userId: number, hash: string): Promise<boolean> {
    const rows = await returnedRows(
      this.dataSource.query(
        `UPDATE users SET recovery_codes = array_remove(recovery_codes, $2)
        WHERE id = $1 AND $2 = ANY (recovery_codes) RETURNING id`,
        [userId, hash],
      ),
    );
    return rows.length > 0;
  }

  /** Takes a code's time step, in one conditional update: false when that step or a later one was used already. */
  async useTotpStep(userId: number, step: number): Promise<boolean> {
    const rows = await returnedRows(
      this.dataSource.query(
        `UPDATE users SET totp_last_step = $2
        WHERE id = $1 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
        [userId, step],
      ),
    );
    return rows.length > 0;
  }

  /** The workspaces a user belongs to, by id. */
  async workspaceIds(userId: number, tx: Transaction = this.dataSource.manager): Promise<number[]> {
    const rows = await tx.query<{ account_id: number }[]>(
      'SELECT account_id FROM memberships WHERE user_id = $1 ORDER BY account_id',
      [userId],
    );
    return rows.map((row) => row.account_id);
  }
}
