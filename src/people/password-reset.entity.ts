import { Column, Entity, Index } from 'typeorm';
import { CreatedAt } from '../common/columns';
import { UserOwned } from './user-owned.entity';

/** A password reset asked for by email, known only by the SHA-256 of its token; used once, within 60 minutes. */
@Entity('password_resets')
@Index('IDX_password_resets_user', ['userId'])
export class PasswordReset extends UserOwned {
  @Index('UQ_password_resets_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}
