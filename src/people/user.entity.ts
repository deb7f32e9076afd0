import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../common/columns';

/** A person who signs in, a member of any number of workspaces (accounts). */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_users' })
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Kept in lower case, so that one address is one user however it is typed. */
  @Index('UQ_users_email', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  email!: string;

  /** The password's slow hash (common/secret-hash.ts); null for a user who signs in only through single sign-on. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
