import { Column, Entity, Index } from 'typeorm';
import { EditableAccountOwned } from '../../auth/account-owned.entity';
import type { EventType } from '../outbox/event';

/** A receiver of an account's events: where they go, which ones, signed with what, and how its deliveries fare. */
@Entity('webhooks')
@Index('IDX_webhooks_account', ['accountId', 'id'])
export class Webhook extends EditableAccountOwned {
  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'text', array: true })
  events!: EventType[];

  /** `whsec_` and base64: kept to sign with, shown only when made. */
  @Column({ type: 'varchar', length: 100 })
  secret!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Failed attempts since the last delivered one. */
  @Column({ type: 'integer', default: 0 })
  failures!: number;

  /** The first failure since the last delivery; five days on, the webhook is disabled. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'last_status', type: 'smallint', nullable: true })
  lastStatus!: number | null;

  @Column({ name: 'last_delivery_at', type: 'timestamptz', nullable: true })
  lastDeliveryAt!: Date | null;
}
