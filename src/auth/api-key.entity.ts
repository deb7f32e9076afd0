import { Column, Entity, Index } from 'typeorm';
import { EditableAccountOwned } from './account-owned.entity';
import type { Scope } from './scopes';

/** An API key, known only by the SHA-256 of its secret, with what it may do. */
@Entity('api_keys')
@Index('IDX_api_keys_account', ['accountId'])
export class ApiKey extends EditableAccountOwned {
  @Index('UQ_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** The secret's first 8 characters, to recognise it by; null for a key made before keys had one. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  prefix!: string | null;

  @Column({ type: 'text', array: true })
  scopes!: Scope[];

  /** The spaces it is restricted to; null for every space. */
  @Column({ name: 'space_ids', type: 'integer', array: true, nullable: true })
  spaceIds!: number[] | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** To the minute: written at most once a minute per key, by whichever request first finds it older. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
