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

/** Unique on (account_id, lower(name)): an expression index, declared in the migration. */
export const PIXEL_NAME_UNIQUE = uniqueField('UQ_pixels_account_name', 'name');

@Entity('pixels')
@Index('IDX_pixels_account_id', ['accountId', 'id'])
@Index(PIXEL_NAME_UNIQUE, { synchronize: false })
export class Pixel {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_pixels' })
  id!: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'FK_pixels_account' })
  account?: Account;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'varchar', length: 255 })
  value!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
