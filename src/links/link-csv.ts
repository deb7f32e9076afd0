import { parse } from 'csv-parse/sync';
import { csvLines, csvText, csvTextRead } from '../common/csv-cells';
import { isoDate } from '../common/dates';
import { ValidationFailedException } from '../common/exceptions';

/**
 * The CSV of links, as export writes it and import reads it back. Secrets are never exported: a `password` or
 * `redirect_password` column may be added to a file before import. Columns import does not read (`id`,
 * `short_url`, `clicks`, `created_at`) describe the exported link. Text that would start a spreadsheet formula is
 * written after a quote, which import takes off again (`common/csv-cells.ts`).
 */
export const LINK_CSV_COLUMNS = [
  'id',
  'alias',
  'short_url',
  'url',
  'title',
  'domain_id',
  'space_id',
  'pixel_ids',
  'targets_type',
  'targets',
  'sensitive_content',
  'privacy',
  'active_period_start_at',
  'active_period_end_at',
  'clicks_limit',
  'expiration_url',
  'disabled',
  'clicks',
  'created_at',
] as const;

/** Columns that describe an exported link and are not create fields: import passes them over. */
const DESCRIPTIVE: ReadonlySet<string> = new Set(['id', 'short_url', 'clicks', 'created_at']);

/** The columns import takes, as the create fields of the same names: the export's, and the secrets it never writes. */
const IMPORTED: ReadonlySet<string> = new Set([
  ...LINK_CSV_COLUMNS.filter((column) => !DESCRIPTIVE.has(column)),
  'password',
  'redirect_password',
]);

/** The columns of text that someone else may have chosen, written so that no spreadsheet runs them. */
const TEXT: ReadonlySet<string> = new Set(['alias', 'short_url', 'url', 'title', 'expiration_url']);

/** One exported link, as read from the database. */
export interface LinkExportRow {
  id: number;
  alias: string;
  short_url: string;
  url: string;
  title: string | null;
  domain_id: number;
  space_id: number | null;
  pixel_ids: string | null;
  targets_type: string | null;
  targets: { key?: string | null; value: string }[] | null;
  sensitive_content: boolean;
  privacy: number;
  active_period_start_at: Date | null;
  active_period_end_at: Date | null;
  clicks_limit: number | null;
  expiration_url: string | null;
  disabled: boolean;
  clicks: number;
  created_at: Date;
}

export const LINK_CSV_HEADER = csvLines([[...LINK_CSV_COLUMNS]]);

/** Lines of CSV for exported links. */
export function linkCsvLines(rows: LinkExportRow[]): string {
  return csvLines(
    rows.map((row) => [
      row.id,
      csvText(row.alias),
      csvText(row.short_url),
      csvText(row.url),
      csvText(row.title ?? ''),
      row.domain_id,
      row.space_id ?? '',
      row.pixel_ids ?? '',
      row.targets_type ?? '',
      row.targets === null ? '' : JSON.stringify(row.targets),
      row.sensitive_content ? 1 : 0,
      row.privacy,
      isoDate(row.active_period_start_at) ?? '',
      isoDate(row.active_period_end_at) ?? '',
      row.clicks_limit ?? '',
      csvText(row.expiration_url ?? ''),
      row.disabled ? 1 : 0,
      row.clicks,
      isoDate(row.created_at),
    ]),
  );
}

/**
 * The links of an imported CSV as create bodies, one per data row: empty cells are absent fields, `pixel_ids`
 * is split on spaces and `targets` read as JSON, and a text cell loses the quote export wrote before a formula
 * character. A file that is no CSV, or has no `url` column, is a 422 on `file`.
 */
export function linksFromCsv(text: string): Record<string, unknown>[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, bom: true, trim: true }) as Record<
      string,
      string
    >[];
  } catch {
    throw ValidationFailedException.of('file', 'The file must be a CSV file with a header row.');
  }
  if (records.length > 0 && !('url' in records[0])) {
    throw ValidationFailedException.of('file', 'The file must have a url column.');
  }
  return records.map((record) => {
    const body: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(record)) {
      if (!IMPORTED.has(column) || value === '') continue;
      if (column === 'pixel_ids') body.pixel_ids = value.split(/\s+/);
      else if (column === 'targets') body.targets = parseTargets(value);
      else body[column] = TEXT.has(column) ? csvTextRead(value) : value;
    }
    return body;
  });
}

/** JSON targets; anything else is kept as the text, for the targets validator to refuse by name. */
function parseTargets(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
