import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Account } from '../auth/account.entity';
import { uniqueField } from '../common/database-errors';

export const SPACE_COLORS = [1, 2, 3, 4, 5, 6] as const;
export const DEFAULT_SPACE_COLOR = 1;

/** Unique on (account_id, lower(name)): an expression index, declared in the migration. */
export const SPACE_NAME_UNIQUE = uniqueField('UQ_spaces_account_name', 'name');

@Entity('spaces')
@Index('IDX_spaces_account_id', ['accountId', 'id'])
@Index(SPACE_NAME_UNIQUE, { synchronize: false })
export class Space {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_spaces' })
  id!: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'FK_spaces_account' })
  account?: Account;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'smallint', default: DEFAULT_SPACE_COLOR })
  color!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
