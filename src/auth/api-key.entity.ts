import { Column, Entity, Index } from 'typeorm';
import { AccountOwned } from './account-owned.entity';

/** An API key, known only by the SHA-256 of its secret. */
@Entity('api_keys')
@Index('IDX_api_keys_account', ['accountId'])
export class ApiKey extends AccountOwned {
  @Index('UQ_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash!: string;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
