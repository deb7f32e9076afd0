import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * What a sign-in waits on between its two requests, on whichever instance the second lands: a passkey's
 * challenge (to register one, or to sign in), or single sign-on's state with its PKCE verifier. Used once, within
 * minutes.
 */
@Entity('sign_in_challenges')
export class SignInChallenge {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_sign_in_challenges' })
  id!: number;

  @Column({ type: 'varchar', length: 16 })
  kind!: 'passkey-add' | 'passkey' | 'oidc';

  @Index('UQ_sign_in_challenges_challenge', { unique: true })
  @Column({ type: 'varchar', length: 128 })
  challenge!: string;

  /** Single sign-on's PKCE code verifier (and nonce, after a space). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  verifier!: string | null;

  /** The user a passkey is being added for. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('IDX_sign_in_challenges_expires')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
