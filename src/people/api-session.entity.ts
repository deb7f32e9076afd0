import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/columns';
import { Account } from '../auth/account.entity';
import { ApiKey } from '../auth/api-key.entity';
import { User } from './user.entity';

/**
 * A dashboard session, known only by the SHA-256 of its cookie's token: a key exchanged for a cookie, or a user's
 * sign-in to one of their workspaces.
 */
@Entity('api_sessions')
@Index('IDX_api_sessions_key', ['keyId'])
@Index('IDX_api_sessions_user', ['userId'])
export class ApiSession {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('UQ_api_sessions_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'key_id', type: 'integer', nullable: true })
  keyId!: number | null;

  /** Removed with its key's row; a revoked or expired key ends its sessions through the lookup. */
  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'key_id' })
  key?: ApiKey;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** A user's session: the workspace it acts in. */
  @Column({ name: 'account_id', type: 'integer', nullable: true })
  accountId!: number | null;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: Account;

  /** Where and with what a user signed in, as their sessions list shows it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 255, nullable: true })
  userAgent!: string | null;

  /** A user's session begun with a second factor (a code of their app, a recovery code, or a passkey). */
  @Column({ name: 'second_factor', type: 'boolean', default: false })
  secondFactor!: boolean;

  @CreatedAt()
  createdAt!: Date;

  @Index('IDX_api_sessions_expires')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
