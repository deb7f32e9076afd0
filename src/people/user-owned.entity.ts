import { Column, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * What a user holds (a passkey, a password reset): an id and its user, removed with them. The constraints are named
 * after the table (`FK_passkeys_user`); the index on `user_id` is the entity's own to declare.
 */
export abstract class UserOwned {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;
}
