import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../auth/account.entity';
import { CreatedAt } from '../common/columns';
import type { Role } from '../auth/roles';
import { User } from './user.entity';

/** A user's place in a workspace: one role; removed with either. */
@Entity('memberships')
@Index('IDX_memberships_user', ['userId'])
export class Membership {
  @PrimaryColumn({ name: 'account_id', type: 'integer', primaryKeyConstraintName: 'PK_memberships' })
  accountId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'integer', primaryKeyConstraintName: 'PK_memberships' })
  userId!: number;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  /** When the user joined. */
  @CreatedAt()
  createdAt!: Date;
}
