import type { StatsDimension } from '../../stats/dto/stats-query.dto';

/** The shorteners an import reads from (contract §12). */
export const IMPORT_SOURCES = ['phpshort', 'shlink', 'kutt', 'bitly', 'yourls'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

/** A space a source groups links in (a phpShort space, a Bitly group), found or made by its name. */
export interface SourceSpace {
  name: string;
  /** 1..6, as spaces take it; 1 when the source has no colours. */
  color?: number;
}

/** A pixel, found by its name or made. */
export interface SourcePixel {
  name: string;
  type: string;
  value: string;
}

/** A custom domain, found by its name or made. Null `name` means the source's own host: the default domain. */
export interface SourceDomain {
  name: string;
  indexPage?: string | null;
  notFoundPage?: string | null;
}

/**
 * The fields of a link as the API's create takes them (phpShort's names: `url`, `alias`, `title`, `targets_type`,
 * `targets`, `clicks_limit`, ...), so that what a source says passes the very validation a request's body does.
 * References (`domain_id`, `space_id`, `pixel_ids`) are not here: the link names them below.
 */
export type SourceLinkFields = Record<string, unknown> & { url: unknown };

/** A recorded visit, where the source keeps visits one by one (YOURLS, Shlink). Values as clicks store them. */
export interface SourceClick {
  at: Date;
  referrer: string | null;
  /** ISO 3166 alpha-2. */
  country: string | null;
  city: string | null;
  continent: string | null;
  browser: string | null;
  operating_system: string | null;
  device: string | null;
  language: string | null;
}

/**
 * Clicks as a source counts them when it keeps no visits: per UTC hour (or per day, put at its first hour) and per
 * dimension, day and value (values as clicks store them: country `GB`, city `GB:London`).
 */
export interface SourceRollups {
  hours: { hour: Date; clicks: number }[];
  days: { dimension: StatsDimension; day: string; value: string | null; clicks: number }[];
}

/** A link of the source, with what it refers to by name and its click history. */
export interface SourceLink {
  /** The source's own id for it, the same on every run: what makes a re-run create nothing twice. */
  sourceId: string;
  fields: SourceLinkFields;
  domain: SourceDomain | null;
  space: SourceSpace | null;
  pixels: SourcePixel[];
  /** Tags, where the source has them; kept with the import's record of the link. */
  tags: string[];
  /** The secrets the source protects it with but does not give out: the link gets a random one instead. */
  unreadableSecrets: ('password' | 'redirect_password')[];
  createdAt: Date | null;
  /** Every visit the source counted, which the link's counter starts from. */
  clicks: number;
  /** Loaded with the page, or by `history` when the source reads it apart. */
  history: SourceClick[] | SourceRollups | null;
}

/** A problem with one item that did not stop the import. */
export interface SourceItemError {
  item: string;
  message: string;
}

/** One page of links, and where the next begins (null at the end). */
export interface SourcePage {
  links: SourceLink[];
  next: string | null;
  errors: SourceItemError[];
}

/** What a source says of itself once opened. */
export interface SourceSummary {
  /** Links it holds, where it says. */
  linksTotal: number | null;
  /** Spaces, domains and pixels it holds even where no link uses them. */
  spaces: SourceSpace[];
  domains: SourceDomain[];
  pixels: SourcePixel[];
}

/**
 * A shortener read page by page. `open` checks that the source is what it says and that the credentials work;
 * `page` reads the page a cursor names (null for the first), its links' click history included. Cursors are
 * text the import stores, so that a restart goes on from the last page written. Adapters never touch the
 * database: they read and map, the import writes.
 */
export interface ImportSource {
  open(): Promise<SourceSummary>;
  page(cursor: string | null): Promise<SourcePage>;
  close(): Promise<void>;
}

/** Why a source cannot be read at all: the import fails with this message, which names no secret. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

/**
 * The position a cursor names, when the adapter of `source` (`Kutt`, `Bitly`...) wrote it: `read` takes the JSON
 * object the adapter wrote and gives null for one it did not. Any other cursor is a SourceError.
 */
export function cursorOf<T>(
  cursor: string,
  source: string,
  read: (written: Record<string, unknown>) => T | null,
): T {
  let position: T | null = null;
  try {
    const written: unknown = JSON.parse(cursor);
    if (typeof written === 'object' && written !== null) position = read(written as Record<string, unknown>);
  } catch {
    // Not JSON: reported below with any other cursor the adapter did not write.
  }
  if (position === null) throw new SourceError(`the import cursor is not one a ${source} source wrote`);
  return position;
}

/** A whole number from `min` up, as a cursor counts pages or links. */
export function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}
