import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt } from '../common/columns';

/**
 * One change, as the audit log keeps it: written in the change's transaction, by the audited tables' triggers
 * (the migration `people-and-audit`) or by the service for what has no table of its own to watch (sign-ins,
 * invitations, members). No foreign key: an entry outlives what it is about.
 */
@Entity('audit_log')
@Index('IDX_audit_log_account', ['accountId', 'id'])
export class AuditEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'account_id', type: 'integer' })
  accountId!: number;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: string;

  @Column({ name: 'actor_id', type: 'integer', nullable: true })
  actorId!: number | null;

  @Column({ name: 'actor_name', type: 'varchar', length: 255, nullable: true })
  actorName!: string | null;

  @Column({ name: 'target_type', type: 'varchar', length: 32 })
  targetType!: string;

  @Column({ name: 'target_id', type: 'integer', nullable: true })
  targetId!: number | null;

  /** `{"field": [old, new]}`; a secret's values are `"[redacted]"`. */
  @Column({ type: 'jsonb' })
  changes!: Record<string, [unknown, unknown]>;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Index('IDX_audit_log_created')
  @CreatedAt()
  createdAt!: Date;
}
