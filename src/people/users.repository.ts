import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan } from 'typeorm';
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
}
