import type {
  CreateImportBody,
  ImportJob,
  ImportOnConflict,
  ImportSource,
  ImportStatus,
} from '../../api/types';
import { withScheme } from '../../components/UrlInput';
import type { Messages } from '../../i18n/en';

/** The options a source may take, by the names the API gives them. */
export type OptionName = 'url' | 'api_key' | 'access_token' | 'database_url' | 'table_prefix';

export interface SourceOption {
  name: OptionName;
  /** Whether the API refuses an import of this source without it (a 422 on its name). */
  required: boolean;
  hint?: keyof Messages['imports']['hints'];
}

/** The sources by their own names: not translated. */
export const SOURCE_NAMES: Record<ImportSource, string> = {
  phpshort: 'phpShort',
  shlink: 'Shlink',
  kutt: 'Kutt',
  bitly: 'Bitly',
  yourls: 'YOURLS',
};

const URL_AND_KEY: readonly SourceOption[] = [
  { name: 'url', required: true, hint: 'sourceUrl' },
  { name: 'api_key', required: true },
];

/** What each source needs (contract §12), in the order the form asks for it. */
export const SOURCE_OPTIONS: Record<ImportSource, readonly SourceOption[]> = {
  phpshort: URL_AND_KEY,
  shlink: URL_AND_KEY,
  kutt: URL_AND_KEY,
  bitly: [
    { name: 'access_token', required: true },
    { name: 'url', required: false, hint: 'bitlyUrl' },
  ],
  yourls: [
    { name: 'database_url', required: true, hint: 'databaseUrl' },
    { name: 'table_prefix', required: false, hint: 'tablePrefix' },
  ],
};

/** The longest value of each option that the API takes. */
export const OPTION_MAX_LENGTH: Record<OptionName, number> = {
  url: 2048,
  api_key: 1000,
  access_token: 1000,
  database_url: 2000,
  table_prefix: 64,
};

/** The options that are credentials: typed in password fields, never offered by autofill. */
export const SECRET_OPTIONS: ReadonlySet<OptionName> = new Set(['api_key', 'access_token', 'database_url']);

export type OptionValues = Record<OptionName, string>;

export const NO_OPTIONS: OptionValues = {
  url: '',
  api_key: '',
  access_token: '',
  database_url: '',
  table_prefix: '',
};

/**
 * The import to start: the chosen source's own options only, each as typed (a URL completed with `https://`), an
 * empty one left out so that the API's default applies or its 422 says it is missing.
 */
export function importBody(
  source: ImportSource,
  values: OptionValues,
  dryRun: boolean,
  onConflict: ImportOnConflict,
): CreateImportBody {
  const body: CreateImportBody = { source, dry_run: dryRun ? 1 : 0, on_conflict: onConflict };
  for (const { name } of SOURCE_OPTIONS[source]) {
    const value = name === 'url' ? withScheme(values[name]) : values[name].trim();
    if (value !== '') body[name] = value;
  }
  return body;
}

const ACTIVE: readonly ImportStatus[] = ['queued', 'running'];

/** Whether an import may still change: it is waiting or running, and may be cancelled. */
export function isActive(job: Pick<ImportJob, 'status'>): boolean {
  return ACTIVE.includes(job.status);
}

/** How an import is named in its row, its buttons and the notices: its source and its number. */
export function importName(job: Pick<ImportJob, 'id' | 'source'>): string {
  return `${SOURCE_NAMES[job.source]} #${job.id}`;
}
