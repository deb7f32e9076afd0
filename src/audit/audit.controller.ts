import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { ScopedRoute } from '../auth/resource-route';
import { csvLines } from '../common/csv-cells';
import { CsvExports } from '../common/csv-stream';
import { ApiFileResponse, ApiListResponse } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { AUDIT_CSV_COLUMNS, auditCsvLines, AuditEntryResponse } from './audit.mapper';
import { AuditService } from './audit.service';
import { AuditListQueryDto } from './dto/audit-list-query.dto';

/** The audit log (contract §11): every change through the API, the dashboard or the CLI, with who made it. */
@ApiTags('audit')
@Controller('api/v1/audit-log')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly exports: CsvExports,
  ) {}

  @ScopedRoute('audit.read', Get(), {
    operationId: 'listAuditLog',
    summary: 'The audit log',
    description: 'Newest first (`sort=asc` for oldest first), narrowed by the filters given.',
    errors: [422],
  })
  @ApiListResponse(AuditEntryResponse)
  async list(@CurrentOwner() owner: Owner, @Query() query: AuditListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.audit.list(owner.accountId, query));
  }

  @ScopedRoute('audit.read', Get('export'), {
    operationId: 'exportAuditLog',
    summary: 'Export the audit log as CSV',
    description: 'Every entry the filters select, newest first; `changes` as JSON in one cell.',
    errors: [422],
  })
  @ApiFileResponse('One entry per line after a header.', { 'text/csv': { type: 'string' } })
  async export(
    @CurrentOwner() owner: Owner,
    @Query() query: AuditListQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    await this.exports.send(response, owner.accountId, {
      filename: 'audit-log.csv',
      header: csvLines([[...AUDIT_CSV_COLUMNS]]),
      chunks: this.audit.rows(owner.accountId, query),
      lines: auditCsvLines,
    });
  }
}
