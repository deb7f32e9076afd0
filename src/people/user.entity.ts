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

  /** The TOTP secret (base32) while two-factor sign-in is on; null while it is off. Never answered. */
  @Column({ name: 'totp_secret', type: 'varchar', length: 64, nullable: true })
  totpSecret!: string | null;

  /** A secret being set up, until a code of it is confirmed. */
  @Column({ name: 'totp_pending_secret', type: 'varchar', length: 64, nullable: true })
  totpPendingSecret!: string | null;

  /** The time step of the last code used: a code works once. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep!: string | null;

  /** The SHA-256 of each recovery code not used yet. */
  @Column({ name: 'recovery_codes', type: 'text', array: true, default: () => "'{}'" })
  recoveryCodes!: string[];

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
