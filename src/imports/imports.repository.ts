import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, Repository, type EntityManager } from 'typeorm';
import { rollUp, sharedRollUp, sharedValue } from '../clicks/click.repository';
import type { Page, PageRequest } from '../common/pagination';
import type { Transaction } from '../database/transactions';
import { DIMENSION_CODES } from '../clicks/click-dimensions';
import { ImportJob, type ImportError, type ImportStatus, type OnConflict } from './import-job.entity';
import type { SourceClick, SourceRollups } from './sources/source';

/** A new import, as the API asks for it. */
export interface NewImport {
  accountId: number;
  source: ImportJob['source'];
  sourceOrigin: string;
  dryRun: boolean;
  onConflict: OnConflict;
  options: Record<string, string>;
  credentials: Record<string, string>;
}

/** Which imports a claim may take: of these workspaces only (null: any), and that one alone when an id is given. */
export interface ClaimScope {
  accountIds: readonly number[] | null;
  importId?: number;
}

const ANY_IMPORT: ClaimScope = { accountIds: null };

/** An import a runner has taken: the job, what it needs to read its source, and the token its writes carry. */
export interface ClaimedImport {
  job: ImportJob;
  credentials: Record<string, string>;
  token: string;
}

/** What a page added to an import's progress, and where the next page begins. */
export interface PageProgress {
  cursor: string | null;
  linksTotal: number | null;
  done: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  clicks: number;
  errors: ImportError[];
}

/** A link already on a domain under an alias the import wants. */
export interface TakenAlias {
  id: number;
  account_id: number | null;
  domain_id: number;
  alias: string;
}

/** A link's history as the page writes it. */
export interface LinkHistory {
  linkId: number;
  clicks: number;
  createdAt: Date | null;
  history: SourceClick[] | SourceRollups | null;
}

/** The eight values of a raw click, in the order of the stats names, as `click_profile_ids` takes them. */
function profileOf(click: SourceClick): (string | null)[] {
  return [
    click.referrer,
    click.country,
    click.city,
    click.continent,
    click.browser,
    click.operating_system,
    click.device,
    click.language,
  ];
}

/** The import's columns as a runner reads them: every column but the secrets. */
const JOB_COLUMNS = `id, account_id AS "accountId", source, source_origin AS "sourceOrigin", status, dry_run AS "dryRun",
  on_conflict AS "onConflict", options, cursor, links_total AS "linksTotal", links_done AS "linksDone",
  links_created AS "linksCreated", links_updated AS "linksUpdated", links_skipped AS "linksSkipped",
  links_failed AS "linksFailed", clicks_imported AS "clicksImported", errors, cancel_requested AS "cancelRequested",
  lease_until AS "leaseUntil", created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt"`;

/**
 * Raw clicks of a page: each click names its link, its time and its profile, numbered by an earlier statement (a
 * profile made within this one would not be seen by its rollups' join). The counters of the page's links were
 * locked first by {@link ImportsRepository.addHistory}, as every writer of clicks does.
 */
const INSERT_RAW_CLICKS = `
  WITH kept AS MATERIALIZED (
    -- A source says whom a click came from, not which of the link's destinations it was sent to: no target.
    SELECT link_id, created_at, profile, NULL::int AS target
      FROM unnest($1::int[], $2::timestamptz[], $3::int[]) AS r(link_id, created_at, profile)
  ), recorded AS (
    INSERT INTO click_events (created_at, link_id, profile_id) SELECT created_at, link_id, profile FROM kept
  ), ${rollUp('link_counters')}
  SELECT count(*)::int AS clicks FROM kept`;

/**
 * Rollups as a source counted them: per hour, and per dimension, day and value, added to any already there, and to
 * their accounts' and spaces' (read from the counter rows the page locked). Each distinct value of the page is
 * numbered once (`$4`, `$5`: its dimension and text, in order of first use); a day row names its value by its place
 * in that list (`$9`, 0 for unknown), so `click_value_id` runs per value, not per row.
 */
const INSERT_ROLLUPS = `
  WITH hourly AS (
    SELECT link_id, date_bin('1 hour', hour, '2000-01-01 00:00:00+00') AS hour, sum(clicks)::int AS clicks
      FROM unnest($1::int[], $2::timestamptz[], $3::int[]) AS r(link_id, hour, clicks)
     GROUP BY 1, 2
  ), hours AS (
    INSERT INTO click_hours AS h (link_id, hour, clicks)
    SELECT link_id, hour, clicks FROM hourly ORDER BY 1, 2
    ON CONFLICT (link_id, hour) DO UPDATE SET clicks = h.clicks + excluded.clicks
  ), coded AS MATERIALIZED (
    SELECT place, click_value_id(dimension, value) AS value
      FROM unnest($4::smallint[], $5::text[]) WITH ORDINALITY AS v(dimension, value, place)
  ), daily AS (
    SELECT r.link_id, r.dimension, r.day, COALESCE(c.value, 0) AS value, sum(r.clicks)::int AS clicks
      FROM unnest($6::int[], $7::smallint[], $8::date[], $9::int[], $10::int[]) AS r(link_id, dimension, day, place, clicks)
      LEFT JOIN coded c ON c.place = r.place
     GROUP BY 1, 2, 3, 4
  ), days AS (
    INSERT INTO click_days AS d (link_id, dimension, day, value, clicks)
    SELECT link_id, dimension, day, value, clicks FROM daily ORDER BY 1, 2, 3, 4
    ON CONFLICT (link_id, dimension, day, value) DO UPDATE SET clicks = d.clicks + excluded.clicks
  ), ${sharedRollUp('link_counters', `SELECT o.account_id, o.space_id, x.dimension, x.day, ${sharedValue('x')} AS value, x.clicks FROM daily x JOIN link_counters o ON o.link_id = x.link_id`)}
  SELECT 1`;

/** Every query of imports: the jobs, their leases and progress, the record of imported links, and their clicks. */
@Injectable()
export class ImportsRepository {
  constructor(
    @InjectRepository(ImportJob) private readonly jobs: Repository<ImportJob>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Runs `work` in a transaction of its own. */
  within<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(fields: NewImport): Promise<ImportJob> {
    const [row] = await this.dataSource.query<ImportJob[]>(
      `INSERT INTO imports (account_id, source, source_origin, dry_run, on_conflict, options, credentials)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${JOB_COLUMNS}`,
      [
        fields.accountId,
        fields.source,
        fields.sourceOrigin,
        fields.dryRun,
        fields.onConflict,
        JSON.stringify(fields.options),
        JSON.stringify(fields.credentials),
      ],
    );
    return row;
  }

  async find(accountId: number, id: number): Promise<ImportJob | null> {
    return this.jobs.findOne({ where: { id, accountId } });
  }

  /** A page of the account's imports, newest first (`asc`: oldest first), and their total. */
  async list(accountId: number, page: PageRequest, direction: 'ASC' | 'DESC'): Promise<Page<ImportJob>> {
    const [items, total] = await this.jobs.findAndCount({
      where: { accountId },
      order: { id: direction },
      skip: (page.page - 1) * page.perPage,
      take: page.perPage,
    });
    return { items, total };
  }

  /**
   * Ends an import that has not ended: the runner's next write finds it so and stops without committing its page.
   * Null when there is no such import or it had ended already.
   */
  async cancel(accountId: number, id: number): Promise<ImportJob | null> {
    const [rows] = await this.dataSource.query<[ImportJob[], number]>(
      `UPDATE imports SET status = 'cancelled', finished_at = now(), credentials = NULL, lease_until = NULL,
              lease_token = NULL
        WHERE id = $1 AND account_id = $2 AND status IN ('queued', 'running')
        RETURNING ${JOB_COLUMNS}`,
      [id, accountId],
    );
    return rows[0] ?? null;
  }

  /**
   * Takes the next import to run, with a lease of `leaseMs`: the oldest queued one of a workspace with none
   * running, or a running one whose runner let its lease lapse (it stopped without ending it). Another instance's
   * claim at the same moment skips the row; a second running import of a workspace is refused by the unique
   * index, which reads as nothing to take this time.
   */
  async claim(leaseMs: number, token: string, scope: ClaimScope = ANY_IMPORT): Promise<ClaimedImport | null> {
    try {
      const [rows] = await this.dataSource.query<
        [(ImportJob & { credentials: Record<string, string> })[], number]
      >(
        `UPDATE imports SET status = 'running', lease_until = now() + $1 * interval '1 millisecond',
                lease_token = $2, started_at = COALESCE(started_at, now())
          WHERE id = (
            SELECT i.id FROM imports i
             WHERE ((i.status = 'running' AND i.lease_until < now())
                    OR (i.status = 'queued'
                        AND NOT EXISTS (SELECT 1 FROM imports r WHERE r.account_id = i.account_id AND r.status = 'running')))
               AND ($3::int[] IS NULL OR i.account_id = ANY($3::int[]))
               AND ($4::int IS NULL OR i.id = $4)
             ORDER BY i.id LIMIT 1
               FOR UPDATE SKIP LOCKED)
          RETURNING ${JOB_COLUMNS}, credentials`,
        [leaseMs, token, scope.accountIds === null ? null : [...scope.accountIds], scope.importId ?? null],
      );
      const row = rows[0];
      if (row === undefined) return null;
      const { credentials, ...job } = row;
      return { job: job, credentials: credentials ?? {}, token };
    } catch (error) {
      if (error instanceof QueryFailedError && /UQ_imports_running_account/.test(String(error.message)))
        return null;
      throw error;
    }
  }

  /** Extends the lease; false when the import is no longer this runner's (cancelled, or taken over). */
  async renew(id: number, token: string, leaseMs: number): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE imports SET lease_until = now() + $3 * interval '1 millisecond'
        WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [id, token, leaseMs],
    );
    return count === 1;
  }

  /**
   * Adds a page's progress in the page's transaction; false when the import is no longer this runner's, and the
   * caller then rolls the page back.
   */
  async advance(
    tx: Transaction | null,
    id: number,
    token: string,
    progress: PageProgress,
    leaseMs: number,
  ): Promise<boolean> {
    const [, count] = await (tx ?? this.dataSource.manager).query<[unknown[], number]>(
      `UPDATE imports SET cursor = $3, links_total = COALESCE($4, links_total), links_done = links_done + $5,
              links_created = links_created + $6, links_updated = links_updated + $7,
              links_skipped = links_skipped + $8, links_failed = links_failed + $9,
              clicks_imported = clicks_imported + $10, errors = $11,
              lease_until = now() + $12 * interval '1 millisecond'
        WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [
        id,
        token,
        progress.cursor,
        progress.linksTotal,
        progress.done,
        progress.created,
        progress.updated,
        progress.skipped,
        progress.failed,
        progress.clicks,
        JSON.stringify(progress.errors),
        leaseMs,
      ],
    );
    return count === 1;
  }

  /** Lets the lease lapse now: the import stays running, for any instance to take over at once. */
  async release(id: number, token: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE imports SET lease_until = now() - interval '1 second' WHERE id = $1 AND lease_token = $2`,
      [id, token],
    );
  }

  /** Ends the import as `status`, with its errors; its credentials are dropped. False when it was not this runner's. */
  async finish(id: number, token: string, status: ImportStatus, errors: ImportError[]): Promise<boolean> {
    const [, count] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE imports SET status = $3, errors = $4, finished_at = now(), credentials = NULL, lease_until = NULL,
              lease_token = NULL
        WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
      [id, token, status, JSON.stringify(errors)],
    );
    return count === 1;
  }

  /** Which links the source's links became in an earlier run: by the source's id. */
  async importedLinks(accountId: number, origin: string, sourceIds: string[]): Promise<Map<string, number>> {
    if (sourceIds.length === 0) return new Map();
    const rows = await this.dataSource.query<{ source_id: string; link_id: number }[]>(
      `SELECT source_id, link_id FROM imported_links
        WHERE account_id = $1 AND source_origin = $2 AND source_id = ANY($3::text[])`,
      [accountId, origin, sourceIds],
    );
    return new Map(rows.map((row) => [row.source_id, row.link_id]));
  }

  /** The links that hold these aliases on these domains, matched regardless of case as the unique index does. */
  async takenAliases(wanted: { domainId: number; alias: string }[]): Promise<TakenAlias[]> {
    if (wanted.length === 0) return [];
    return this.dataSource.query<TakenAlias[]>(
      `SELECT l.id, l.account_id, l.domain_id, l.alias FROM links l
         JOIN unnest($1::int[], $2::text[]) AS w(domain_id, alias)
           ON l.domain_id = w.domain_id AND lower(l.alias) = lower(w.alias)`,
      [wanted.map((item) => item.domainId), wanted.map((item) => item.alias)],
    );
  }

  /** Remembers which link each source link became, and its tags. */
  async recordLinks(
    tx: Transaction,
    accountId: number,
    origin: string,
    links: { sourceId: string; linkId: number; tags: string[] }[],
  ): Promise<void> {
    if (links.length === 0) return;
    await tx.query(
      `INSERT INTO imported_links (account_id, source_origin, source_id, link_id, tags)
       SELECT $1, $2, r.source_id, r.link_id, r.tags
         FROM jsonb_to_recordset($3::jsonb) AS r(source_id text, link_id integer, tags jsonb)
       ON CONFLICT (account_id, source_origin, source_id) DO UPDATE SET link_id = excluded.link_id, tags = excluded.tags`,
      [
        accountId,
        origin,
        JSON.stringify(
          links.map(({ sourceId, linkId, tags }) => ({ source_id: sourceId, link_id: linkId, tags })),
        ),
      ],
    );
  }

  /**
   * The click history of links the page brought: their counters first (in link order, the lock every writer of
   * clicks takes), then their creation dates as the source had them, then raw clicks or rollups. Returns the clicks
   * written to the history.
   */
  async addHistory(tx: Transaction, links: LinkHistory[]): Promise<number> {
    const ordered = [...links].sort((a, b) => a.linkId - b.linkId);
    await tx.query(
      `UPDATE link_counters c SET clicks = c.clicks + r.clicks, listed_behind = true
         FROM unnest($1::int[], $2::int[]) AS r(link_id, clicks)
        WHERE c.link_id = r.link_id`,
      [ordered.map((link) => link.linkId), ordered.map((link) => link.clicks)],
    );
    const dated = ordered.filter((link) => link.createdAt !== null);
    if (dated.length > 0) {
      await tx.query(
        `UPDATE links l SET created_at = r.created_at
           FROM unnest($1::int[], $2::timestamptz[]) AS r(id, created_at) WHERE l.id = r.id`,
        [dated.map((link) => link.linkId), dated.map((link) => link.createdAt!.toISOString())],
      );
    }
    return (await this.insertRawClicks(tx, ordered)) + (await this.insertRollups(tx, ordered));
  }

  private async insertRawClicks(tx: EntityManager, links: LinkHistory[]): Promise<number> {
    const profiles = new Map<string, number>();
    const linkIds: number[] = [];
    const times: string[] = [];
    const places: number[] = [];
    for (const { linkId, history } of links) {
      if (!Array.isArray(history)) continue;
      for (const click of history) {
        const key = JSON.stringify(profileOf(click));
        let place = profiles.get(key);
        if (place === undefined) {
          place = profiles.size + 1;
          profiles.set(key, place);
        }
        linkIds.push(linkId);
        times.push(click.at.toISOString());
        places.push(place);
      }
    }
    if (linkIds.length === 0) return 0;
    const [{ ids }] = await tx.query<{ ids: number[] }[]>('SELECT click_profile_ids($1::jsonb) AS ids', [
      `[${[...profiles.keys()].join(',')}]`,
    ]);
    const [{ clicks }] = await tx.query<{ clicks: number }[]>(INSERT_RAW_CLICKS, [
      linkIds,
      times,
      places.map((place) => ids[place - 1]),
    ]);
    return clicks;
  }

  private async insertRollups(tx: EntityManager, links: LinkHistory[]): Promise<number> {
    const hours: [number[], string[], number[]] = [[], [], []];
    // The page's distinct values (dimension, text), each numbered by its place from 1 in order of first use.
    const places = new Map<number, Map<string, number>>();
    const values: [number[], string[]] = [[], []];
    const days: [number[], number[], string[], number[], number[]] = [[], [], [], [], []];
    let clicks = 0;
    for (const { linkId, history } of links) {
      if (history === null || Array.isArray(history)) continue;
      for (const hour of history.hours) {
        hours[0].push(linkId);
        hours[1].push(hour.hour.toISOString());
        hours[2].push(hour.clicks);
        clicks += hour.clicks;
      }
      for (const day of history.days) {
        const dimension = DIMENSION_CODES[day.dimension];
        let place = 0;
        if (day.value !== null) {
          let placed = places.get(dimension);
          if (placed === undefined) places.set(dimension, (placed = new Map<string, number>()));
          place = placed.get(day.value) ?? 0;
          if (place === 0) {
            values[0].push(dimension);
            place = values[1].push(day.value);
            placed.set(day.value, place);
          }
        }
        days[0].push(linkId);
        days[1].push(dimension);
        days[2].push(day.day);
        days[3].push(place);
        days[4].push(day.clicks);
      }
    }
    if (hours[0].length === 0 && days[0].length === 0) return 0;
    await tx.query(INSERT_ROLLUPS, [...hours, ...values, ...days]);
    return clicks;
  }
}
