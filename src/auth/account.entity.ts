import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity('accounts')
export class Account {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_accounts' })
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Set with the CLI; reported by `GET /api/v1/account`, used for nothing else. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
