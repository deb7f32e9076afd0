import { Column, Entity, Index } from 'typeorm';
import { CreatedAt } from '../common/columns';
import { UserOwned } from './user-owned.entity';

/** A user's passkey (a WebAuthn credential): its id and public key, and the count its authenticator keeps. */
@Entity('passkeys')
@Index('IDX_passkeys_user', ['userId'])
export class Passkey extends UserOwned {
  /** The credential's id, base64url, as the browser names it. */
  @Index('UQ_passkeys_credential', { unique: true })
  @Column({ name: 'credential_id', type: 'varchar', length: 1024 })
  credentialId!: string;

  @Column({ name: 'public_key', type: 'bytea' })
  publicKey!: Buffer;

  /** The authenticator's signature count: one that goes back is a cloned authenticator. */
  @Column({ type: 'bigint', default: '0' })
  counter!: string;

  @Column({ type: 'text', array: true, nullable: true })
  transports!: string[] | null;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @CreatedAt()
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
