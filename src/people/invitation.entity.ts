import { Column, Entity, Index } from 'typeorm';
import { AccountOwned } from '../auth/account-owned.entity';
import type { Role } from '../auth/roles';

/** An invitation to a workspace, known only by the SHA-256 of its token; used once, within 7 days. */
@Entity('invitations')
@Index('IDX_invitations_account', ['accountId', 'id'])
export class Invitation extends AccountOwned {
  /** Null for the first owner's link, printed at the first start: whoever opens it gives their email. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @Index('UQ_invitations_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** When it was accepted or revoked: either ends it. */
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;
}
