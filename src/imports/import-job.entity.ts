import { Column, Entity, Index } from 'typeorm';
import { AccountOwned } from '../auth/account-owned.entity';
import type { ImportSourceName } from './sources/source';

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** What an import does with a link whose alias is taken on its domain: leave it, take `alias-2`, or change it. */
export const ON_CONFLICT = ['skip', 'suffix', 'update'] as const;
export type OnConflict = (typeof ON_CONFLICT)[number];

/** A problem with one item, as the import answers it. */
export interface ImportError {
  item: string;
  message: string;
}

/** The answer keeps at most this many errors: the first ones, which say what went wrong. */
export const MAX_IMPORT_ERRORS = 100;

/** An import from another shortener: its source, how far it got, and who runs it (the migration `imports`). */
@Entity('imports')
@Index('IDX_imports_account', ['accountId', 'id'])
/** Partial indexes, which the migration writes: one running import per workspace, and the runner's queue. */
@Index('UQ_imports_running_account', { synchronize: false })
@Index('IDX_imports_waiting', { synchronize: false })
export class ImportJob extends AccountOwned {
  @Column({ type: 'varchar', length: 16 })
  source!: ImportSourceName;

  /** The source without its credentials (its URL, or its database and table prefix): what its links are known by. */
  @Column({ name: 'source_origin', type: 'text' })
  sourceOrigin!: string;

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  status!: ImportStatus;

  @Column({ name: 'dry_run', type: 'boolean', default: false })
  dryRun!: boolean;

  @Column({ name: 'on_conflict', type: 'varchar', length: 8, default: 'skip' })
  onConflict!: OnConflict;

  /** The source's settings that are no secret (`url`, `table_prefix`). */
  @Column({ type: 'jsonb', default: {} })
  options!: Record<string, string>;

  /** Held only while the import may still run: cleared the moment it ends. Never answered. */
  @Column({ type: 'jsonb', nullable: true, select: false })
  credentials?: Record<string, string> | null;

  @Column({ type: 'text', nullable: true })
  cursor!: string | null;

  @Column({ name: 'links_total', type: 'integer', nullable: true })
  linksTotal!: number | null;

  @Column({ name: 'links_done', type: 'integer', default: 0 })
  linksDone!: number;

  @Column({ name: 'links_created', type: 'integer', default: 0 })
  linksCreated!: number;

  @Column({ name: 'links_updated', type: 'integer', default: 0 })
  linksUpdated!: number;

  @Column({ name: 'links_skipped', type: 'integer', default: 0 })
  linksSkipped!: number;

  @Column({ name: 'links_failed', type: 'integer', default: 0 })
  linksFailed!: number;

  /** bigint: read as text by the driver. */
  @Column({ name: 'clicks_imported', type: 'bigint', default: '0' })
  clicksImported!: string;

  @Column({ type: 'jsonb', default: [] })
  errors!: ImportError[];

  @Column({ name: 'cancel_requested', type: 'boolean', default: false })
  cancelRequested!: boolean;

  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  /** The runner holding the lease: only its writes count. */
  @Column({ name: 'lease_token', type: 'text', nullable: true, select: false })
  leaseToken?: string | null;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
