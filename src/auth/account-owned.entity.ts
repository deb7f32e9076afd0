import { Column, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/columns';
import { Account } from './account.entity';

/**
 * What every resource an account owns has: an id, its account (deleted with it) and when it was made. The
 * constraints are named after the table (`PK_spaces`, `FK_spaces_account`) by {@link ConstraintNames}; an index on
 * `(account_id, id)`, which lists page by, is the entity's own to declare, under its own name.
 */
export abstract class AccountOwned {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  @CreatedAt()
  createdAt!: Date;
}

/** An account's resource that can be changed after it is made: it says when it last was. */
export abstract class EditableAccountOwned extends AccountOwned {
  @UpdatedAt()
  updatedAt!: Date;
}
