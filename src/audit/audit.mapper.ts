import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import { csvLines, csvText } from '../common/csv-cells';
import type { AuditRow } from './audit.repository';
import { ACTOR_TYPES, TARGET_TYPES } from './dto/audit-list-query.dto';

export class AuditActorResponse {
  @ApiProperty({ type: 'string', enum: [...ACTOR_TYPES], enumName: 'AuditActorType' })
  type!: string;

  @ApiInteger({
    nullable: true,
    description: "The user's or the key's id; null for the CLI and the service.",
  })
  id!: number | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Ann Lee' })
  name!: string | null;
}

export class AuditTargetResponse {
  @ApiProperty({ type: 'string', enum: [...TARGET_TYPES], enumName: 'AuditTargetType' })
  type!: string;

  @ApiInteger({ nullable: true, example: 5 })
  id!: number | null;
}

export class AuditEntryResponse {
  @ApiInteger({ example: 81 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'link.updated' })
  action!: string;

  @ApiProperty({ type: AuditActorResponse })
  actor!: AuditActorResponse;

  @ApiProperty({ type: AuditTargetResponse })
  target!: AuditTargetResponse;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: {}, minItems: 2, maxItems: 2 },
    example: { url: ['https://old.example', 'https://new.example'] },
    description: 'Each changed field, `[old, new]`; secrets as `"[redacted]"`.',
  })
  changes!: Record<string, [unknown, unknown]>;

  @ApiProperty({ type: 'string', nullable: true, example: '203.0.113.7' })
  ip!: string | null;

  @ApiDateTime()
  created_at!: string;
}

export function toAuditEntryResponse(row: AuditRow): AuditEntryResponse {
  return {
    id: Number(row.id),
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    target: { type: row.target_type, id: row.target_id },
    changes: row.changes,
    ip: row.ip,
    created_at: isoDate(new Date(row.created_at)),
  };
}

export const AUDIT_CSV_COLUMNS = [
  'id',
  'created_at',
  'action',
  'actor_type',
  'actor_id',
  'actor_name',
  'target_type',
  'target_id',
  'changes',
  'ip',
] as const;

/** Entries as CSV lines, in {@link AUDIT_CSV_COLUMNS}' order; text cells guarded against formulas. */
export function auditCsvLines(rows: AuditRow[]): string {
  return csvLines(
    rows.map((row) => [
      row.id,
      isoDate(new Date(row.created_at)),
      csvText(row.action),
      row.actor_type,
      row.actor_id ?? '',
      csvText(row.actor_name ?? ''),
      row.target_type,
      row.target_id ?? '',
      csvText(JSON.stringify(row.changes)),
      row.ip ?? '',
    ]),
  );
}
