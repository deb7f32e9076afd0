import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import { IMPORT_STATUSES, type ImportJob, type ImportStatus } from './import-job.entity';
import { IMPORT_SOURCES, type ImportSourceName } from './sources/source';

export class ImportProgress {
  @ApiInteger({ nullable: true, description: 'Links the source holds, once it said.' })
  links_total!: number | null;

  @ApiInteger()
  links_done!: number;

  @ApiInteger()
  links_created!: number;

  @ApiInteger()
  links_updated!: number;

  @ApiInteger()
  links_skipped!: number;

  @ApiInteger()
  links_failed!: number;

  @ApiInteger()
  clicks_imported!: number;
}

export class ImportErrorResponse {
  @ApiProperty({ type: 'string', example: 'summer-sale' })
  item!: string;

  @ApiProperty({ type: 'string', example: 'url: The url field must be a valid URL.' })
  message!: string;
}

/** An import as the API answers it: never its credentials. */
export class ImportResponse {
  @ApiInteger()
  id!: number;

  @ApiProperty({ enum: IMPORT_SOURCES, enumName: 'ImportSource' })
  source!: ImportSourceName;

  @ApiProperty({ enum: IMPORT_STATUSES, enumName: 'ImportStatus' })
  status!: ImportStatus;

  @ApiProperty({ type: 'integer', enum: [0, 1] })
  dry_run!: 0 | 1;

  @ApiProperty({ type: ImportProgress })
  progress!: ImportProgress;

  @ApiProperty({ type: [ImportErrorResponse], maxItems: 100, description: 'The first 100 problems.' })
  errors!: ImportErrorResponse[];

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime({ nullable: true })
  started_at!: string | null;

  @ApiDateTime({ nullable: true })
  finished_at!: string | null;
}

export function toImportResponse(job: ImportJob): ImportResponse {
  return {
    id: job.id,
    source: job.source,
    status: job.status,
    dry_run: job.dryRun ? 1 : 0,
    progress: {
      links_total: job.linksTotal,
      links_done: job.linksDone,
      links_created: job.linksCreated,
      links_updated: job.linksUpdated,
      links_skipped: job.linksSkipped,
      links_failed: job.linksFailed,
      clicks_imported: Number(job.clicksImported),
    },
    errors: job.errors.map(({ item, message }) => ({ item, message })),
    created_at: isoDate(job.createdAt),
    started_at: isoDate(job.startedAt),
    finished_at: isoDate(job.finishedAt),
  };
}
