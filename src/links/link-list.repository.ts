import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { substringPattern } from '../common/search';
import { MAX_ID } from '../common/validation';
import { cursorRows } from '../database/cursor';
import { ReadReplicas } from '../database/read-replicas';
import { DATABASE_CONNECTION, type DatabaseConnection } from '../database/database.module';
import type { Transaction } from '../database/transactions';
import type { LinkExportRow } from './link-csv';
import { LINK_VISIT_FIELD_NAMES } from './link-visit-fields';
import { CheckStatus } from './health/link-check.entity';
import { LinkStatus } from './status/link-status';
import { expiredLinks, linkStatusCondition } from './status/link-status.repository';

export type LinkSearchBy = 'title' | 'alias' | 'url';
export type LinkSortBy = 'id' | 'clicks' | 'title' | 'alias' | 'url';

/** What a list asks for, the defaults applied. */
export interface LinkListFilter {
  accountId: number;
  /** The spaces a restricted key reaches (null: every space and none), beside the filters the list was given. */
  reach: readonly number[] | null;
  search: { by: LinkSearchBy; term: string } | null;
  status: LinkStatus | null;
  /** 0: the links without a space. */
  spaceId: number | null;
  domainId: number | null;
  pixelId: number | null;
  /** Links holding any of these tags (none: no link); null for no such filter. */
  tagIds: readonly number[] | null;
  /** true: the archived links alone; false: every link but those. */
  archived: boolean;
  /**
   * The account has no archived links (known before the list's statements): leaving them out is then no condition
   * at all, so that a list of an account that never archived pays nothing for the archive.
   */
  noneArchived?: boolean;
  /** The links whose last check found this; null for no such filter. */
  health: CheckStatus | null;
}

export interface LinkListOrder {
  by: LinkSortBy;
  direction: 'ASC' | 'DESC';
}

/** A statement and its parameters, for `DataSource.query`. */
export interface Sql {
  text: string;
  values: unknown[];
}

/** What the count statement answers: the filter's links, and all of the account's. */
export interface LinkCounts {
  count: number;
  links: number;
}

class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

// Searched regardless of case: `lower(column) LIKE lower(pattern)` is what ILIKE does in a UTF-8 database, written
// so that the indexes on lower(column) serve it (trigram for rare terms, btree to count common ones).
const SEARCH_KEYS: Record<LinkSearchBy, string> = {
  title: 'lower(link.title)',
  alias: 'lower(link.alias)',
  url: 'lower(link.url)',
};

// Text regardless of case, as spaces and pixels sort their names; each key has its index (account_id, key, id).
const SORT_KEYS: Record<LinkSortBy, string> = {
  id: 'link.id',
  clicks: 'counter.listed_clicks',
  title: 'lower(link.title)',
  alias: 'lower(link.alias)',
  url: 'lower(link.url)',
};

type FilterName =
  'reach' | 'search' | 'status' | 'space' | 'domain' | 'pixel' | 'tag' | 'archived' | 'health';

/** The filters that are set, by name. */
function setFilters(filter: LinkListFilter): FilterName[] {
  const set: FilterName[] = [];
  if (filter.reach !== null) set.push('reach');
  if (filter.search !== null) set.push('search');
  if (filter.status !== null) set.push('status');
  if (filter.spaceId !== null) set.push('space');
  if (filter.domainId !== null) set.push('domain');
  if (filter.pixelId !== null) set.push('pixel');
  if (filter.tagIds !== null) set.push('tag');
  // Leaving the archive out is what every list does: only asking for it is a filter.
  if (filter.archived) set.push('archived');
  if (filter.health !== null) set.push('health');
  return set;
}

/** Whether exactly these filters are set. */
function only(filter: LinkListFilter, ...names: FilterName[]): boolean {
  const set = setFilters(filter);
  return set.length === names.length && names.every((name) => set.includes(name));
}

/**
 * Whether the link `alias` is in the archive, or not, as the filter asks. Leaving the archive out is written as an
 * anti-join to the archive's own partial index (archived links are few), so that a list walking an index of the
 * account's links still reads that index alone rather than each row to see its flag.
 */
function archiveCondition(filter: LinkListFilter, account: string, alias = 'link.id'): string {
  if (filter.archived) return 'link.archived';
  if (filter.noneArchived === true) return 'true';
  return `NOT EXISTS (SELECT 1 FROM links archived
                        WHERE archived.account_id = ${account} AND archived.archived AND archived.id = ${alias})`;
}

/** The conditions of the filters that the maintained counts know: space (and the reach's spaces) and domain. */
function placeConditions(filter: LinkListFilter, params: Parameters): string[] {
  const where: string[] = [];
  if (filter.reach !== null) where.push(`link.space_id = ANY(${params.add(filter.reach)}::integer[])`);
  if (filter.spaceId === 0) where.push('link.space_id IS NULL');
  else if (filter.spaceId !== null) where.push(`link.space_id = ${params.add(filter.spaceId)}`);
  if (filter.domainId !== null) where.push(`link.domain_id = ${params.add(filter.domainId)}`);
  return where;
}

/** Those conditions and the archive's: the filters of a list that counts from the maintained counts. */
function countedConditions(filter: LinkListFilter, params: Parameters, account: string): string[] {
  return [...placeConditions(filter, params), archiveCondition(filter, account)];
}

/** The conditions of every filter but the status, over the alias `link`. */
function conditions(filter: LinkListFilter, params: Parameters, account: string): string[] {
  const where = placeConditions(filter, params);
  if (filter.search !== null) {
    const pattern = params.add(substringPattern(filter.search.term));
    where.push(`${SEARCH_KEYS[filter.search.by]} LIKE lower(${pattern}) ESCAPE '\\'`);
  }
  if (filter.pixelId !== null) {
    const pixel = params.add(filter.pixelId);
    where.push(`EXISTS (SELECT 1 FROM link_pixels lp WHERE lp.link_id = link.id AND lp.pixel_id = ${pixel})`);
  }
  if (filter.tagIds !== null) {
    const tags = params.add(filter.tagIds);
    where.push(
      `EXISTS (SELECT 1 FROM link_tags lt WHERE lt.link_id = link.id AND lt.tag_id = ANY(${tags}::int[]))`,
    );
  }
  if (filter.health !== null) {
    const health = params.add(filter.health);
    where.push(`EXISTS (SELECT 1 FROM link_checks lc WHERE lc.link_id = link.id AND lc.status = ${health})`);
  }
  where.push(archiveCondition(filter, account));
  return where;
}

/**
 * A pixel's links are its `link_pixels` rows: a link only ever gets the pixels of its own account (the API checks
 * them), and the pixel is checked to be the account's.
 */
function pixelOwned(account: string, pixel: string): string {
  return `EXISTS (SELECT 1 FROM pixels p WHERE p.id = ${pixel} AND p.account_id = ${account})`;
}

/**
 * Whether walking the index of the order may skip many links to fill a page: right when most links match,
 * ruinous when few do (a rare search term, a filter and a sort of different columns), where reading the matches
 * and sorting them is right. No walk misses without a filter, for the expired links (always read and sorted), or
 * along an index that holds a filter's links in id order (space, domain, disabled, a pixel).
 */
function walkMayMiss(filter: LinkListFilter, order: LinkListOrder): boolean {
  if (setFilters(filter).length === 0 || filter.status === LinkStatus.Expired) return false;
  if (order.by !== 'id') return true;
  return !(
    only(filter, 'space') ||
    only(filter, 'domain') ||
    only(filter, 'pixel') ||
    only(filter, 'archived') ||
    (only(filter, 'status') && filter.status === LinkStatus.Disabled)
  );
}

/**
 * Visits update `link_counters.clicks` in place, which no index reads (so that PostgreSQL writes no index entry per
 * counted batch); what the list sorts by and the status filter counts is `listed_clicks`, a copy that this
 * statement brings up to date for the counters of the account that are behind, before such a list reads it. Rows
 * are locked in link order, as the click batches lock them, so neither can deadlock the other.
 */
export function catchUpListedClicks(accountId: number): Sql {
  return {
    text: `UPDATE link_counters c SET listed_clicks = c.clicks, listed_behind = false
             FROM (SELECT link_id FROM link_counters WHERE account_id = $1 AND listed_behind
                    ORDER BY link_id FOR NO KEY UPDATE) behind
            WHERE c.link_id = behind.link_id`,
    values: [accountId],
  };
}

/** Whether a list reads the listed clicks: sorted by clicks, or filtered by active or expired (the clicks limit). */
export function readsListedClicks(filter: LinkListFilter, order: LinkListOrder): boolean {
  return order.by === 'clicks' || filter.status === LinkStatus.Active || filter.status === LinkStatus.Expired;
}

/**
 * The ids of one page of links, in order, from indexes: each order walks its own, `(account_id, <key>, id)`
 * forwards or backwards (clicks: the counters' index), so that a deep page skips index entries rather than sorting
 * the account's links. Expired links come from the indexes that find them alone, sorted. Where a walk may miss,
 * `counts` chooses between walking, which visits about (offset + limit) * links / count entries, and reading the
 * count matches to sort them. Only ids are read here.
 */
export function linkPageQuery(
  filter: LinkListFilter,
  order: LinkListOrder,
  offset: number,
  limit: number,
  counts?: LinkCounts,
): Sql {
  const params = new Parameters();
  const account = params.add(filter.accountId);
  const direction = order.direction;
  const page = (): string => `LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`;
  if (order.by === 'clicks' && setFilters(filter).length === 0) {
    return {
      text: `SELECT counter.link_id AS id FROM link_counters counter
              WHERE counter.account_id = ${account} AND ${archiveCondition(filter, account, 'counter.link_id')}
              ORDER BY counter.listed_clicks ${direction}, counter.link_id ${direction} ${page()}`,
      values: params.values,
    };
  }
  if (order.by === 'id' && only(filter, 'pixel')) {
    const pixel = params.add(filter.pixelId);
    return {
      text: `SELECT lp.link_id AS id FROM link_pixels lp
              WHERE lp.pixel_id = ${pixel} AND ${pixelOwned(account, pixel)}
                AND ${archiveCondition(filter, account, 'lp.link_id')}
              ORDER BY lp.link_id ${direction} ${page()}`,
      values: params.values,
    };
  }
  const where = conditions(filter, params, account);
  const join =
    order.by === 'clicks'
      ? `JOIN link_counters counter ON counter.link_id = link.id AND counter.account_id = ${account}`
      : '';
  const select = `link.id, ${SORT_KEYS[order.by]} AS key`;
  const sorted = `ORDER BY matching.key ${direction}, matching.id ${direction}`;
  if (filter.status === LinkStatus.Expired) {
    return {
      text: `SELECT matching.id FROM (${expiredLinks(account, { select, join, conditions: where })}) matching
              ${sorted} ${page()}`,
      values: params.values,
    };
  }
  where.unshift(`link.account_id = ${account}`);
  if (filter.status !== null) where.push(linkStatusCondition(filter.status, account));
  const matching = `SELECT ${select} FROM links link ${join} WHERE ${where.join(' AND ')}`;
  if (
    counts !== undefined &&
    walkMayMiss(filter, order) &&
    (offset + limit) * counts.links > counts.count * counts.count
  ) {
    // Materialized, so that the planner finds the matches by their own indexes instead of walking the order's.
    return {
      text: `WITH matching AS MATERIALIZED (${matching}) SELECT matching.id FROM matching ${sorted} ${page()}`,
      values: params.values,
    };
  }
  // Ties broken by id; for clicks, the counter's copy of it, as its index has it.
  const tie = order.by === 'clicks' ? 'counter.link_id' : 'link.id';
  const orderBy =
    order.by === 'id' ? `link.id ${direction}` : `${SORT_KEYS[order.by]} ${direction}, ${tie} ${direction}`;
  return {
    text: `SELECT link.id FROM links link ${join} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} ${page()}`,
    values: params.values,
  };
}

/** The most links a search finds that a list reads at once, for its page and its total (see {@link foundPageQuery}). */
export const SEARCH_FOUND_AT_ONCE = 20_000;

/**
 * How a search finds its matches: through the trigram index of the searched column (`trigram`), or as the planner
 * chooses among the account's indexes (`account`). See {@link searchPath}.
 */
export type SearchPath = 'trigram' | 'account';

/**
 * Whether a term gives the trigram indexes something to look up: a run of three letters or digits. pg_trgm finds a
 * `LIKE '%term%'` by the trigrams inside its words; a shorter term may have none that every match must hold, and its
 * index could only be read whole.
 */
export function hasTrigrams(term: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(term);
}

/** What chooses a search's path: the account's links, and whether the table changed much since it was analysed. */
export interface SearchFacts {
  accountLinks: number;
  /** More than a fifth of `links` (and 10,000 rows) written since the planner's statistics were taken. */
  unanalysed: boolean;
}

/**
 * The path of a search that reads at most `bound` matches at once. Where `links` has changed much since it was
 * analysed (right after a bulk load, before autovacuum's pass), an account of more than `bound` links is searched
 * for a term with trigrams through the trigram index, whatever the statistics say: the planner would take the
 * account's own index for a handful of rows and filter every link of the account (a million links: 0.4-0.8 s,
 * against 10-30 ms through the trigrams). Otherwise the planner's choice among the account's indexes stands: with
 * statistics it finds a rare term by its trigrams anyway, and a term in most links along the title's index (10-15
 * ms for its first 20,001 matches, against 25-89 ms through the trigrams). A smaller account is read through its
 * own indexes, which hold at most `bound` of its links however many other accounts' links the term matches.
 */
export function searchPath(term: string, facts: SearchFacts, bound = SEARCH_FOUND_AT_ONCE): SearchPath {
  return facts.unanalysed && facts.accountLinks > bound && hasTrigrams(term) ? 'trigram' : 'account';
}

/**
 * A search's page and its exact total from one reading of its matches, when it finds at most `bound` links (not
 * the expired ones, which have their own statements): each match is read once to check it, and they are counted
 * and sorted in memory. Counting and then paging would read every match twice; walking the order's index to fill a
 * page reads every link between the matches, and a term that goes with when its links were made (a campaign's word,
 * a number) has them bunched, so the walk may cross most of the account. A search that finds more stops after
 * `bound` + 1 rows (`found` says so, and `ids` is null), and the count and the page are asked for apart.
 *
 * On the `trigram` path the account is compared as `account_id + 0`, which no index serves, so that the trigram
 * index is the one way to the matches (or, where the statistics say the term is in most rows, reading the table
 * until `bound` + 1 are found). On the `account` path a title or alias term in most rows stops early along that
 * column's index, from its keys alone, as its count does (see linkCountQuery).
 */
export function foundPageQuery(
  filter: LinkListFilter,
  order: LinkListOrder,
  offset: number,
  limit: number,
  bound: number,
  path: SearchPath = 'account',
): Sql {
  const params = new Parameters();
  const account = params.add(filter.accountId);
  const where = conditions(filter, params, account);
  where.unshift(path === 'trigram' ? `link.account_id + 0 = ${account}` : `link.account_id = ${account}`);
  if (filter.status !== null) where.push(linkStatusCondition(filter.status, account));
  const join =
    order.by === 'clicks'
      ? `JOIN link_counters counter ON counter.link_id = link.id AND counter.account_id = ${account}`
      : '';
  const direction = order.direction;
  const past = params.add(bound + 1);
  const stop =
    path === 'account' && filter.search !== null && filter.search.by !== 'url' && only(filter, 'search')
      ? `ORDER BY ${SEARCH_KEYS[filter.search.by]}, link.id`
      : '';
  // Nothing is sorted for a search that found more.
  return {
    text: `WITH matching AS MATERIALIZED (
             SELECT link.id, ${SORT_KEYS[order.by]} AS key FROM links link ${join}
              WHERE ${where.join(' AND ')} ${stop} LIMIT ${past})
           SELECT counted.found,
                  CASE WHEN counted.found < ${past} THEN ARRAY(
                    SELECT matching.id FROM matching ORDER BY matching.key ${direction}, matching.id ${direction}
                     LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}) END AS ids
             FROM (SELECT count(*)::int AS found FROM matching) counted`,
    values: params.values,
  };
}

/**
 * The exact number of links a filter finds (`count`) and of the account's links (`links`), in one statement (one
 * snapshot). Without a search or a pixel it reads the maintained counts (per account, space, domain and disabled)
 * and, for statuses 1 and 2, counts the expired links, which indexes find alone: active = enabled - expired. A
 * pixel alone counts its `link_pixels` rows. A search alone by title or alias counts in the order of that column's
 * index, which holds the lower-case text, so that a term in every row is matched against index entries rather
 * than by lower-casing every row of the table. Anything else counts the matching rows.
 */
export function linkCountQuery(filter: LinkListFilter): Sql {
  const params = new Parameters();
  const account = params.add(filter.accountId);
  const links = `(SELECT COALESCE(sum(c.links), 0) FROM link_counts c WHERE c.account_id = ${account})::int AS links`;
  const statement = (count: string): Sql => ({
    text: `SELECT (${count})::int AS count, ${links}`,
    values: params.values,
  });
  const expired = (where: string[]) =>
    `(SELECT count(*) FROM (${expiredLinks(account, { select: '1', conditions: where })}) expired)`;
  if (
    filter.search === null &&
    filter.pixelId === null &&
    filter.tagIds === null &&
    filter.health === null &&
    !filter.archived
  ) {
    if (filter.status === LinkStatus.Expired)
      return statement(expired(countedConditions(filter, params, account)));
    const counted = [`c.account_id = ${account}`];
    if (filter.reach !== null) counted.push(`c.space_id = ANY(${params.add(filter.reach)}::integer[])`);
    if (filter.spaceId !== null) counted.push(`c.space_id = ${params.add(filter.spaceId)}`);
    if (filter.domainId !== null) counted.push(`c.domain_id = ${params.add(filter.domainId)}`);
    if (filter.status === LinkStatus.Disabled) counted.push('c.disabled');
    if (filter.status === LinkStatus.Active) counted.push('NOT c.disabled');
    const sum = `(SELECT COALESCE(sum(c.links), 0) FROM link_counts c WHERE ${counted.join(' AND ')})`;
    // The counts hold the archived links too: those the filter would find are taken off, through their index.
    const archivedFound = (): string => {
      const archived = [`link.account_id = ${account}`, 'link.archived', ...placeConditions(filter, params)];
      if (filter.status === LinkStatus.Disabled) archived.push('link.disabled');
      if (filter.status === LinkStatus.Active) archived.push('NOT link.disabled');
      return `(SELECT count(*) FROM links link WHERE ${archived.join(' AND ')})`;
    };
    // Parameters are added only for what the statement says: an unused one has no type PostgreSQL could infer.
    const listed = filter.noneArchived === true ? sum : `${sum} - ${archivedFound()}`;
    // The same filters again, over the alias `link`.
    if (filter.status === LinkStatus.Active) {
      return statement(`${listed} - ${expired(countedConditions(filter, params, account))}`);
    }
    return statement(listed);
  }
  if (only(filter, 'pixel')) {
    const pixel = params.add(filter.pixelId);
    return statement(
      `SELECT count(*) FROM link_pixels lp WHERE lp.pixel_id = ${pixel} AND ${pixelOwned(account, pixel)}
          AND ${archiveCondition(filter, account, 'lp.link_id')}`,
    );
  }
  const where = conditions(filter, params, account);
  if (filter.status === LinkStatus.Expired) return statement(expired(where));
  where.unshift(`link.account_id = ${account}`);
  if (filter.status !== null) where.push(linkStatusCondition(filter.status, account));
  const matching = `SELECT 1 FROM links link WHERE ${where.join(' AND ')}`;
  if (filter.search !== null && filter.search.by !== 'url' && only(filter, 'search')) {
    return statement(
      `SELECT count(*) FROM (${matching} ORDER BY ${SEARCH_KEYS[filter.search.by]}, link.id) matching`,
    );
  }
  return statement(`SELECT count(*) FROM (${matching}) matching`);
}

/** A link's exported columns, as the database gives them: all but its short URL, which needs its domain. */
export type StoredExportRow = Omit<LinkExportRow, 'short_url' | 'health'> & { health: CheckStatus };

/** The §13 columns an export writes after the others. */
const VISIT_COLUMNS = LINK_VISIT_FIELD_NAMES.map((name) => `l.${name}`).join(', ');

/**
 * The statements of the account's link lists and exports: the SQL above, run. The order of a list's statements
 * (which needs the listed clicks, whether the count comes first) is the service's. The lists and exports are read
 * from a replica when one is recent enough ({@link ReadReplicas}); what they write, on the primary.
 */
@Injectable()
export class LinkListRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
    private readonly reads: ReadReplicas,
  ) {}

  /** Whether the account has archived links, from the archive's own index. */
  async hasArchived(accountId: number): Promise<boolean> {
    const [row] = await this.dataSource.query<{ any: boolean }[]>(
      'SELECT EXISTS (SELECT 1 FROM links WHERE account_id = $1 AND archived) AS any',
      [accountId],
    );
    return row.any;
  }

  /** The listed clicks of the account brought up to date, for a list that sorts or filters by them. */
  async catchUp(filter: LinkListFilter, order: LinkListOrder): Promise<void> {
    if (!readsListedClicks(filter, order)) return;
    const statement = catchUpListedClicks(filter.accountId);
    await this.dataSource.query(statement.text, statement.values);
    // The list that follows must see what was just brought up to date: a replica may not have it yet.
    this.reads.wrote(filter.accountId);
  }

  /** What {@link linkCountQuery} answers. */
  async counts(filter: LinkListFilter): Promise<LinkCounts> {
    const count = linkCountQuery(filter);
    return (await this.reads.query<LinkCounts[]>(filter.accountId, count.text, count.values))[0];
  }

  /**
   * A search's page and total from one reading of its matches, or null when it finds more than `bound` links (see
   * {@link foundPageQuery}).
   */
  async foundPage(
    filter: LinkListFilter,
    order: LinkListOrder,
    offset: number,
    limit: number,
    bound = SEARCH_FOUND_AT_ONCE,
  ): Promise<{ ids: number[]; total: number } | null> {
    const term = filter.search?.term ?? '';
    const path = hasTrigrams(term)
      ? searchPath(term, await this.searchFacts(filter.accountId), bound)
      : 'account';
    const statement = foundPageQuery(filter, order, offset, limit, bound, path);
    const [row] = await this.reads.query<{ found: number; ids: number[] | null }[]>(
      filter.accountId,
      statement.text,
      statement.values,
    );
    return row.ids === null ? null : { ids: row.ids, total: row.found };
  }

  /**
   * The account's links, from the maintained counts, and whether `links` has changed much since it was analysed,
   * from the server's own counters (where it keeps none, as the embedded database may not, it counts as analysed).
   */
  private async searchFacts(accountId: number): Promise<SearchFacts> {
    const [row] = await this.reads.query<{ links: number; unanalysed: boolean | null }[]>(
      accountId,
      `SELECT (SELECT COALESCE(sum(c.links), 0) FROM link_counts c WHERE c.account_id = $1)::int AS links,
              pg_stat_get_mod_since_analyze(t.oid) > 0.2 * greatest(t.reltuples, 0) + 10000 AS unanalysed
         FROM pg_class t WHERE t.oid = 'links'::regclass`,
      [accountId],
    );
    return { accountLinks: row.links, unanalysed: row.unanalysed === true };
  }

  /** The ids of a page, in order (see {@link linkPageQuery}). */
  async pageIds(
    filter: LinkListFilter,
    order: LinkListOrder,
    offset: number,
    limit: number,
    counts?: LinkCounts,
  ): Promise<number[]> {
    const page = linkPageQuery(filter, order, offset, limit, counts);
    const rows = await this.reads.query<{ id: number }[]>(filter.accountId, page.text, page.values);
    return rows.map((row) => row.id);
  }

  /**
   * The ids of up to `limit` links a list finds, from its own statement, in `tx`: on the primary, where a bulk change
   * writes them next (a replica may lag behind it).
   */
  async foundIds(
    tx: Transaction,
    filter: LinkListFilter,
    order: LinkListOrder,
    limit: number,
  ): Promise<number[]> {
    const page = linkPageQuery(filter, order, 0, limit);
    const rows = await tx.query<{ id: number }[]>(page.text, page.values);
    return rows.map((row) => row.id);
  }

  /** The ids of every domain a link of the account can have: its own, and those of every account. */
  async domainIds(accountId: number): Promise<number[]> {
    const rows = await this.dataSource.query<{ id: number }[]>(
      'SELECT id FROM domains WHERE account_id = $1 OR account_id IS NULL',
      [accountId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Every link of a list, `chunk` at a time, through a database cursor: the list's own statement finds the ids in
   * its order and the exported columns are joined to them, so that the download is one statement (on the embedded
   * database, whose one session a cursor would hold, a statement per chunk).
   */
  async *exportRows(
    filter: LinkListFilter,
    order: LinkListOrder,
    chunk: number,
  ): AsyncGenerator<StoredExportRow[]> {
    const ids = linkPageQuery(filter, order, 0, MAX_ID);
    const rows = `
      SELECT l.id, l.alias, l.url, l.title, l.domain_id, l.space_id,
             (SELECT string_agg(lp.pixel_id::text, ' ' ORDER BY lp.pixel_id) FROM link_pixels lp
               WHERE lp.link_id = l.id) AS pixel_ids,
             l.targets_type, l.targets, l.sensitive_content, l.privacy, l.active_period_start_at,
             l.active_period_end_at, l.clicks_limit, l.expiration_url, l.disabled,
             COALESCE(c.clicks, 0) AS clicks, l.created_at, ${VISIT_COLUMNS},
             ARRAY(SELECT t.name FROM link_tags lt JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = l.id
                    ORDER BY lt.position) AS tags, l.archived,
             COALESCE((SELECT lc.status FROM link_checks lc WHERE lc.link_id = l.id), ${CheckStatus.Unknown}) AS health
        FROM (SELECT found.id, row_number() OVER () AS ord FROM (${ids.text}) AS found) AS page
        JOIN links l ON l.id = page.id
        LEFT JOIN link_counters c ON c.link_id = l.id
       ORDER BY page.ord`;
    const source = await this.reads.sourceFor(filter.accountId);
    yield* cursorRows<StoredExportRow>(source, rows, ids.values, chunk, this.connection);
  }
}
