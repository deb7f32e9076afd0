import { parse } from 'csv-parse/sync';
import { csvLines, csvText, csvTextRead } from '../common/csv-cells';
import { isoDate } from '../common/dates';
import { HttpException, HttpStatus } from '@nestjs/common';
import {
  BULK_JSON_VALUES,
  jsonOverrun,
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  type JsonBudget,
} from '../common/body-parser';
import { ValidationFailedException } from '../common/exceptions';
import { MAX_BULK_LINKS } from './dto/link.dto';
import { LINK_VISIT_FIELD_NAMES, type LinkVisitField } from './link-visit-fields';

/**
 * The CSV of links, as export writes it and import reads it back. Secrets are never exported: a `password` or
 * `redirect_password` column may be added to a file before import. Columns import does not read (`id`,
 * `short_url`, `clicks`, `created_at`, `health`) describe the exported link. Text that would start a spreadsheet formula is
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
  ...LINK_VISIT_FIELD_NAMES,
  'tags',
  'archived',
  'health',
] as const;

/** Columns that describe an exported link and are not create fields: import passes them over. */
const DESCRIPTIVE: ReadonlySet<string> = new Set(['id', 'short_url', 'clicks', 'created_at', 'health']);

/** The columns import takes, as the create fields of the same names: the export's, and the secrets it never writes. */
const IMPORTED: ReadonlySet<string> = new Set([
  ...LINK_CSV_COLUMNS.filter((column) => !DESCRIPTIVE.has(column)),
  'password',
  'redirect_password',
]);

/** The columns of text that someone else may have chosen, written so that no spreadsheet runs them. */
const TEXT: ReadonlySet<string> = new Set([
  'alias',
  'short_url',
  'url',
  'title',
  'expiration_url',
  ...LINK_VISIT_FIELD_NAMES,
  'tags',
]);

/** One exported link, as read from the database. */
export interface LinkExportRow extends Record<LinkVisitField, string | null> {
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
  /** Its tags' names, in the order given. */
  tags: string[];
  archived: boolean;
  /** What its last check found: ok, broken or unknown. */
  health: string;
}

export const LINK_CSV_HEADER = csvLines([[...LINK_CSV_COLUMNS]]);

/** How a cell holds a link's tags: their names, separated by commas (the way the other shorteners' exports do). */
const TAG_SEPARATOR = ', ';

/** The names of a cell of tags. */
function tagsOf(cell: string): string[] {
  return cell
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

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
      ...LINK_VISIT_FIELD_NAMES.map((name) => csvText(row[name] ?? '')),
      csvText(row.tags.join(TAG_SEPARATOR)),
      row.archived ? 1 : 0,
      row.health,
    ]),
  );
}

/** Far more columns than an export has: past it, a header of empty names would make every row a huge object. */
export const MAX_CSV_COLUMNS = 100;

/** What a column of another shortener's export holds: a create field, or the short link whose path is the alias. */
type ExportedColumn = 'url' | 'alias' | 'title' | 'short link' | 'tags';

/** Another shortener's CSV export of links, known by its header row. */
interface ExportFormat {
  name: string;
  /** Sets of column names (lower case), each enough to know the export by when all of it is in the header. */
  recognisedBy: string[][];
  /**
   * The columns read, in the order they are preferred when two give one field; the others (dates, clicks,
   * the short link's domain) describe the link and are passed over, so that it lands on the default domain.
   */
  columns: Record<string, ExportedColumn>;
}

/**
 * The exports of other shorteners that import reads. Each set that recognises one names a column that ours never
 * has, so a header of ours is always read as ours.
 */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  {
    // Bitly's Links → Export: Title, Link, Custom Link, Destination URL, ... (github.com/URLR/urlr-docs,
    // i18n/en/docusaurus-plugin-content-docs/current/migration/bitly.md); by its API's names: long_url,
    // custom_bitlink, title, archived, tags, created_at (https://docs.elido.app/docs/migrations/from-bitly).
    name: 'Bitly',
    recognisedBy: [['destination url', 'custom link'], ['long_url']],
    columns: {
      'destination url': 'url',
      long_url: 'url',
      'custom link': 'short link',
      custom_bitlink: 'short link',
      link: 'short link',
      title: 'title',
      tags: 'tags',
    },
  },
  {
    // Rebrandly exports through its API (https://developers.rebrandly.com/recipes/export-links-to-csv), a column
    // per field of its link: id, title, slashtag, destination, shortUrl, domain, createdAt, updatedAt, clicks
    // (https://developers.rebrandly.com/docs/link-entity).
    name: 'Rebrandly',
    recognisedBy: [['slashtag', 'destination']],
    columns: { destination: 'url', slashtag: 'alias', shorturl: 'short link', title: 'title' },
  },
  {
    // Short.io's links by its API's names: originalURL, path, title, shortURL, secureShortURL, tags, createdAt
    // (github.com/dubinc/dub, apps/web/app/api/cron/import/short/utils.ts, reading Short.io's links).
    name: 'Short.io',
    recognisedBy: [['originalurl']],
    columns: {
      originalurl: 'url',
      path: 'alias',
      secureshorturl: 'short link',
      shorturl: 'short link',
      title: 'title',
      tags: 'tags',
    },
  },
  {
    // Dub's export writes its column labels: Short link, Destination URL, Clicks, Created at, Link ID, Tags
    // (github.com/dubinc/dub, apps/web/ui/modals/export-links-modal.tsx), earlier their ids: link, url, clicks,
    // createdAt (apps/web/app/api/links/export/route.ts).
    name: 'Dub',
    recognisedBy: [
      ['short link', 'destination url'],
      ['link', 'url'],
    ],
    columns: {
      'destination url': 'url',
      url: 'url',
      'short link': 'short link',
      link: 'short link',
      title: 'title',
      tags: 'tags',
    },
  },
];

function exportFormatOf(header: string[]): ExportFormat | undefined {
  const names = new Set(header.map((name) => name.toLowerCase()));
  return EXPORT_FORMATS.find(({ recognisedBy }) =>
    recognisedBy.some((columns) => columns.every((column) => names.has(column))),
  );
}

/** Where in a row each column the format reads stands, in the format's order of preference. */
function formatColumns(header: string[], format: ExportFormat): [number, ExportedColumn][] {
  const names = header.map((name) => name.toLowerCase());
  return Object.entries(format.columns)
    .map(([column, holds]): [number, ExportedColumn] => [names.indexOf(column), holds])
    .filter(([position]) => position >= 0);
}

/** A create body from a row of another shortener's export: its cells as written, the quote being ours alone. */
function exportedLink(record: string[], read: [number, ExportedColumn][]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [position, holds] of read) {
    const field = holds === 'short link' ? 'alias' : holds;
    const value = holds === 'short link' ? backHalf(record[position]) : record[position];
    if (value !== '' && !(field in body)) body[field] = holds === 'tags' ? tagsOf(value) : value;
  }
  return body;
}

/** The path of a short link, written `bit.ly/abc` or `https://bit.ly/abc`, without its first slash. */
function backHalf(shortLink: string): string {
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(shortLink) ? shortLink : `https://${shortLink}`);
    return decodeURIComponent(url.pathname.slice(1));
  } catch {
    // No link: taken as the alias, for the alias validator to refuse on the row's line.
    return shortLink;
  }
}

/** The links of an imported file: a create body per data row, and the line of the file each row starts on. */
export interface CsvLinks {
  bodies: Record<string, unknown>[];
  /** Counted as an editor counts them, the header being line 1, empty lines and lines inside quotes included. */
  lines: number[];
}

/**
 * The links of an imported CSV as create bodies, one per data row: empty cells are absent fields, `pixel_ids`
 * is split on spaces and `targets` read as JSON, and a text cell loses the quote export wrote before a formula
 * character. A header of another shortener's export is read by its format (`EXPORT_FORMATS`). A file that is no
 * CSV, or has no `url` column and is no such export, is a 422 on `file`. Rows past the 1,000th are not read: the
 * file is refused as a bulk create of as many links is.
 */
export function linksFromCsv(file: Buffer): CsvLinks {
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    // The header is read as a row, so that its end, like every row's, is known: the lines are counted from there.
    // With `info`, each record comes with where it ended; the library's types do not say so.
    records = parse(file, {
      info: true,
      to: MAX_BULK_LINKS + 2,
      skip_empty_lines: true,
      bom: true,
      trim: true,
    }) as unknown as typeof records;
  } catch {
    throw ValidationFailedException.of('file', 'The file must be a CSV file with a header row.');
  }
  const [head, ...rows] = records;
  const header = head?.record ?? [];
  if (header.length > MAX_CSV_COLUMNS) {
    throw ValidationFailedException.of(
      'file',
      `The file must not have more than ${MAX_CSV_COLUMNS} columns.`,
    );
  }
  const format = exportFormatOf(header);
  if (rows.length > 0 && format === undefined && !header.includes('url')) {
    throw ValidationFailedException.of('file', 'The file must have a url column.');
  }
  if (rows.length > MAX_BULK_LINKS) {
    throw ValidationFailedException.of(
      'links',
      `The links field must have between 1 and ${MAX_BULK_LINKS} items.`,
    );
  }
  // The targets cells of a file hold at most the values a bulk create's JSON body may.
  const budget: JsonBudget = { values: BULK_JSON_VALUES };
  const read = format === undefined ? undefined : formatColumns(header, format);
  const bodies = rows.map(({ record }) => {
    if (read !== undefined) return exportedLink(record, read);
    const body: Record<string, unknown> = {};
    for (const [position, value] of record.entries()) {
      const column = header[position];
      if (!IMPORTED.has(column) || value === '') continue;
      if (column === 'pixel_ids') body.pixel_ids = value.split(/\s+/);
      else if (column === 'tags') body.tags = tagsOf(csvTextRead(value));
      else if (column === 'targets') body.targets = parseTargets(value, budget);
      else body[column] = TEXT.has(column) ? csvTextRead(value) : value;
    }
    return body;
  });
  return {
    bodies,
    lines: startLines(
      file,
      records.map(({ info }) => info.bytes),
    ),
  };
}

/**
 * The line each data row starts on, from where each record (the header first) ends: the lines the rows before it
 * took, and the empty lines skipped before it. The parser's own line count takes `\r\n` inside quotes for two.
 */
function startLines(file: Buffer, ends: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let offset = 0;
  for (const [index, end] of ends.entries()) {
    for (; offset < end; offset += 1) if (file[offset] === LINE_FEED) line += 1;
    if (index === ends.length - 1) break;
    // Empty lines before the next row: the parser skipped them.
    let next = offset;
    while (BLANK.has(file[next])) {
      if (file[next] === LINE_FEED) line += 1;
      next += 1;
    }
    offset = next;
    lines.push(line);
  }
  return lines;
}

const LINE_FEED = 0x0a;
/** What the parser passes over before a row: empty lines, and the blanks it trims. */
const BLANK: ReadonlySet<number | undefined> = new Set([LINE_FEED, 0x0d, 0x20, 0x09]);

/**
 * JSON targets; anything else, or a list past the limits a JSON body has, is kept as the text, for the targets
 * validator to refuse by name. The cells of a file share one budget of values: past it, the file is too large.
 */
function parseTargets(value: string, budget: JsonBudget): unknown {
  const overrun = jsonOverrun(Buffer.from(value), { depth: MAX_JSON_DEPTH, items: MAX_JSON_ITEMS }, budget);
  if (overrun?.limit === 'values')
    throw new HttpException('Payload too large.', HttpStatus.PAYLOAD_TOO_LARGE);
  if (overrun !== null) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
