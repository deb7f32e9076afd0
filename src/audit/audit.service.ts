import { Inject, Injectable } from '@nestjs/common';
import { mapPage, type Page } from '../common/pagination';
import { PeriodicTask } from '../common/periodic-task';
import { peopleConfig, type PeopleConfig } from '../config/app-config';
import { AuditRepository } from './audit.repository';
import { toAuditEntryResponse, type AuditEntryResponse } from './audit.mapper';
import type { AuditListQueryDto } from './dto/audit-list-query.dto';

/** How often entries past `AUDIT_RETENTION_DAYS` are removed, and how many at a time. */
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_STEP = 5000;

/**
 * The audit log's reading, and its retention: entries older than `AUDIT_RETENTION_DAYS` go, at start and then every
 * hour.
 */
@Injectable()
export class AuditService extends PeriodicTask {
  constructor(
    private readonly repository: AuditRepository,
    @Inject(peopleConfig.KEY) private readonly config: PeopleConfig,
  ) {
    super({ everyMs: PRUNE_EVERY_MS, failure: 'Audit retention failed' });
  }

  protected round(): Promise<number> {
    return this.prune(new Date());
  }

  async list(accountId: number, query: AuditListQueryDto): Promise<Page<AuditEntryResponse>> {
    return mapPage(await this.repository.page(accountId, query, query.pageRequest()), toAuditEntryResponse);
  }

  rows(accountId: number, query: AuditListQueryDto) {
    return this.repository.rows(accountId, query, 1000);
  }

  /** Removes every entry older than the retention at `now`; how many went. */
  async prune(now: Date): Promise<number> {
    const before = new Date(now.getTime() - this.config.auditRetentionDays * 86_400_000);
    let removed = 0;
    for (;;) {
      const step = await this.repository.prune(before, PRUNE_STEP);
      removed += step;
      if (step < PRUNE_STEP) return removed;
    }
  }
}
