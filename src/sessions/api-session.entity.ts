import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/columns';
import { ApiKey } from '../auth/api-key.entity';

/** A dashboard session: a key exchanged for a cookie, known only by the SHA-256 of the cookie's token. */
@Entity('api_sessions')
@Index('IDX_api_sessions_key', ['keyId'])
export class ApiSession {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index('UQ_api_sessions_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'key_id', type: 'integer' })
  keyId!: number;

  /** Removed with its key's row; a revoked or expired key ends its sessions through the lookup. */
  @ManyToOne(() => ApiKey, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'key_id' })
  key?: ApiKey;

  @CreatedAt()
  createdAt!: Date;

  @Index('IDX_api_sessions_expires')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
