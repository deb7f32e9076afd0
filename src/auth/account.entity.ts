import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/columns';

@Entity('accounts')
export class Account {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_accounts' })
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Set with the CLI; reported by `GET /api/v1/account`, used for nothing else. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  /** Whether every member must sign in with a second factor (two-factor or a passkey); an owner's choice. */
  @Column({ name: 'require_two_factor', type: 'boolean', default: false })
  requireTwoFactor!: boolean;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
