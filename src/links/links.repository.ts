import { Injectable } from '@nestjs/common';
import { currentActor } from '../common/actor';
import { InjectRepository } from '@nestjs/typeorm';
import { In, QueryFailedError, Repository, type FindOptionsWhere } from 'typeorm';
import type { Owner } from '../auth/owner';
import { wellFormed } from '../common/well-formed';
import { PreparedStatements, type PreparedStatement } from '../database/prepared-statements';
import type { Transaction } from '../database/transactions';
import { LINK_VISIT_FIELD_NAMES, visitFieldsOf } from './link-visit-fields';
import { Link } from './link.entity';

/** A link to insert: its row, the pixels it gets, and its place in the request, which the answer keys. */
export interface NewLink {
  item: number;
  link: Link;
  pixelIds: number[];
}

/** What the database gave a link it inserted. */
export interface InsertedLink {
  id: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The actor of the work under way, as the audit log's triggers read it; empty for none (nothing is recorded). */
function auditActor(): string {
  const actor = currentActor();
  return actor === null ? '' : JSON.stringify(actor);
}

/** The columns a new link is written with; `id`, `created_at` and `updated_at` come from the database. */
const COLUMNS = `account_id, domain_id, space_id, alias, url, title, targets_type, targets, sensitive_content, privacy,
  password_hash, redirect_password_hash, active_period_start_at, active_period_end_at, clicks_limit,
  expiration_url, disabled, archived, ${LINK_VISIT_FIELD_NAMES.join(', ')}`;

/** The account's limit of links, as `links_within_quota` checks it (see the migration); 0 for none. */
export interface LinksQuota {
  lock: number;
  accountId: number;
  limit: number;
}

/** The SQLSTATE `links_within_quota` raises past the limit, with the total as its detail. */
const QUOTA_EXCEEDED = 'LQ001';

/**
 * Any number of links and their pixels in one statement, each link in the order of `item`: the links come as one
 * JSON parameter (one row each, whatever their number, and one plan for every size). Each gets its id before the
 * insert, which is how the rows that were inserted find their item again. A link whose alias is taken on its
 * domain, by a row already there or by an earlier item of the same statement, is skipped rather than failing the
 * statement: the caller decides, and a bulk needs no savepoint per link. The statement triggers on `links`
 * (counters, counts, notices) run once for the whole set; the pixels' foreign keys are checked at its end, when
 * the links are in.
 *
 * `checked`: the statement also checks the quota once it has inserted a link, so that alone it is a whole create:
 * the quota lock is taken there and held to the commit that follows at once; and it names the actor of the work
 * under way to the audit log's triggers (audit/), as a transaction's start does.
 */
function insertLinks(checked: boolean): string {
  return `
    WITH input AS MATERIALIZED (
      SELECT nextval(pg_get_serial_sequence('links', 'id'))::int AS id, t.*
        FROM json_to_recordset($1::json) AS t(
          item integer, account_id integer, domain_id integer, space_id integer, alias varchar, url varchar,
          title varchar, targets_type varchar, targets jsonb, sensitive_content boolean, privacy smallint,
          password_hash varchar, redirect_password_hash varchar, active_period_start_at timestamptz,
          active_period_end_at timestamptz, clicks_limit integer, expiration_url varchar, disabled boolean,
          archived boolean, ${LINK_VISIT_FIELD_NAMES.map((name) => `${name} varchar`).join(', ')}, pixel_ids integer[])${
            checked
              ? `
       -- A statement that is its own transaction names its actor to the audit log's triggers itself.
       CROSS JOIN (SELECT set_config('shortlink.actor', $5, true)) AS actor`
              : ''
          }
    ), inserted AS (
      INSERT INTO links (id, ${COLUMNS})
      SELECT id, ${COLUMNS} FROM input ORDER BY item
      ON CONFLICT (domain_id, lower(alias)) DO NOTHING
      RETURNING id, created_at, updated_at
    ), pixels AS (
      INSERT INTO link_pixels (link_id, pixel_id)
      SELECT input.id, pixel.id FROM inserted JOIN input USING (id) CROSS JOIN unnest(input.pixel_ids) AS pixel (id)
    )${
      checked
        ? `, quota AS MATERIALIZED (
      SELECT links_within_quota($2, $3, $4, count(*)::int) AS total FROM inserted HAVING count(*) > 0
    )`
        : ''
    }
    SELECT input.item, inserted.id, inserted.created_at, inserted.updated_at${checked ? ', quota.total' : ''}
      FROM inserted JOIN input USING (id)${checked ? ' LEFT JOIN quota ON true' : ''}`;
}
const INSERT_LINKS = insertLinks(false);
const INSERT_LINKS_CHECKED: PreparedStatement = { name: 'insert_links_checked', text: insertLinks(true) };

/** A JSON.stringify replacer that writes strings as PostgreSQL would store them (see {@link wellFormed}). */
function storedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}

/** What a delete removed: where the link was found, for the caches that know it by its alias. */
export interface DeletedLink {
  domain_id: number;
  alias: string;
}

/** A link's two secrets, as the entity names them. */
export type SecretField = 'passwordHash' | 'redirectPasswordHash';

/** Every query of the links' use cases: their reads, their writes, and the inserts shaped by hand. */
@Injectable()
export class LinksRepository {
  constructor(
    @InjectRepository(Link) private readonly links: Repository<Link>,
    private readonly statements: PreparedStatements,
  ) {}

  /** One of the owner's links (within its spaces), with its counter; null beyond its reach. */
  findOwned(owner: Owner, id: number): Promise<Link | null> {
    return this.links.findOne({ where: { id, ...ownedBy(owner) }, relations: { counter: true } });
  }

  /** The owner's links among `ids` (within its spaces): their ids, in id order. */
  async ownedIds(owner: Owner, ids: number[]): Promise<number[]> {
    const rows = await this.links.find({
      select: { id: true },
      where: { id: In(ids), ...ownedBy(owner) },
      order: { id: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  /** The account's links among `ids`, with their counters, in any order: one query for any number. */
  findByIds(accountId: number, ids: number[]): Promise<Link[]> {
    return this.links.find({ where: { accountId, id: In(ids) }, relations: { counter: true } });
  }

  /**
   * The link an alias names on a domain, matched regardless of case like the unique index, and whether it has
   * pixels: one indexed query, the first of every visit.
   */
  async findByAlias(domainId: number, alias: string): Promise<{ link: Link; hasPixels: boolean } | null> {
    const { entities, raw } = await this.links
      .createQueryBuilder('link')
      .innerJoinAndSelect('link.counter', 'counter')
      .addSelect('EXISTS (SELECT 1 FROM link_pixels lp WHERE lp.link_id = link.id)', 'has_pixels')
      .where('link.domain_id = :domainId AND lower(link.alias) = lower(:alias)', { domainId, alias })
      .getRawAndEntities<{ has_pixels: boolean }>();
    return entities.length === 0 ? null : { link: entities[0], hasPixels: raw[0].has_pixels };
  }

  /** Writes `changes` to one of the owner's links in `tx`; false when there is none within its reach. */
  async update(tx: Transaction, owner: Owner, id: number, changes: Partial<Link>): Promise<boolean> {
    const { affected } = await tx.update(Link, { id, ...ownedBy(owner) }, changes);
    return affected !== 0;
  }

  /** The link's targets start their rotation afresh, in `tx`; its counts are never written from here. */
  async restartRotation(tx: Transaction, linkId: number): Promise<void> {
    await tx.query('UPDATE link_counters SET last_rotation = NULL WHERE link_id = $1', [linkId]);
  }

  /** Deletes one of the owner's links, in `tx` or as a statement of its own; undefined when there is none. */
  async remove(
    owner: Owner,
    id: number,
    tx: Transaction = this.links.manager,
  ): Promise<DeletedLink | undefined> {
    const result = await tx
      .createQueryBuilder()
      .delete()
      .from(Link)
      .where({ id, ...ownedBy(owner) })
      .returning(['domain_id', 'alias'])
      .execute();
    const [row] = result.raw as DeletedLink[];
    return row;
  }

  /** Replaces a secret's hash by `upgraded`, unless the link got another secret meanwhile; whether it did. */
  async replaceSecretHash(
    linkId: number,
    field: SecretField,
    stored: string,
    upgraded: string,
  ): Promise<boolean> {
    const { affected } = await this.links
      .createQueryBuilder()
      .update(Link)
      .set({ [field]: upgraded })
      .where({ id: linkId, [field]: stored })
      .execute();
    return affected === 1;
  }

  /** The title of a link that still has none. */
  async fillTitle(linkId: number, title: string): Promise<void> {
    await this.links.query('UPDATE links SET title = $1 WHERE id = $2 AND title IS NULL', [title, linkId]);
  }

  /**
   * Inserts the links whose alias is free on their domain, with their pixels, and checks `quota` once one is in:
   * one prepared statement, a transaction of its own. Returns what the database gave each link inserted, by item;
   * an item missing from the answer was not inserted.
   */
  async insertChecked(links: NewLink[], quota: LinksQuota): Promise<Map<number, InsertedLink>> {
    return insertedByItem(
      await this.statements.query<InsertedRow>(INSERT_LINKS_CHECKED, [
        rowsOf(links),
        quota.lock,
        quota.accountId,
        quota.limit,
        auditActor(),
      ]),
    );
  }

  /** As {@link insertChecked}, in `tx` and without the quota, which its end checks. */
  async insert(tx: Transaction, links: NewLink[]): Promise<Map<number, InsertedLink>> {
    return insertedByItem(await tx.query<InsertedRow[]>(INSERT_LINKS, [rowsOf(links)]));
  }

  /** Checks `quota` in `tx`, after its inserts; the lock is held to its end. */
  async checkQuota(tx: Transaction, quota: LinksQuota): Promise<void> {
    await tx.query('SELECT links_within_quota($1, $2, $3, 0)', [quota.lock, quota.accountId, quota.limit]);
  }
}

/** The conditions on a link that make it the owner's: its account's, in one of its spaces when it is restricted. */
function ownedBy(owner: Owner): FindOptionsWhere<Link> {
  return owner.spaceIds === null
    ? { accountId: owner.accountId }
    : { accountId: owner.accountId, spaceId: In([...owner.spaceIds]) };
}

interface InsertedRow {
  item: number;
  id: number;
  created_at: Date;
  updated_at: Date;
}

function insertedByItem(rows: InsertedRow[]): Map<number, InsertedLink> {
  return new Map(
    rows.map((row) => [row.item, { id: row.id, createdAt: row.created_at, updatedAt: row.updated_at }]),
  );
}

/** The JSON parameter of the insert: a row per link, named as the columns. */
function rowsOf(links: NewLink[]): string {
  const rows = links.map(({ item, link, pixelIds }) => ({
    item,
    account_id: link.accountId,
    domain_id: link.domainId,
    space_id: link.spaceId,
    alias: link.alias,
    url: link.url,
    title: link.title,
    targets_type: link.targetsType,
    targets: link.targets,
    sensitive_content: link.sensitiveContent,
    privacy: link.privacy,
    password_hash: link.passwordHash,
    redirect_password_hash: link.redirectPasswordHash,
    active_period_start_at: link.activePeriodStartAt,
    active_period_end_at: link.activePeriodEndAt,
    clicks_limit: link.clicksLimit,
    expiration_url: link.expirationUrl,
    disabled: link.disabled,
    archived: link.archived,
    ...visitFieldsOf(link),
    pixel_ids: pixelIds,
  }));
  return JSON.stringify(rows, storedStrings);
}

/** The total of a refusal of `links_within_quota`: what the account would have held; null for any other error. */
export function linksQuotaTotal(error: unknown): number | null {
  if (!(error instanceof QueryFailedError)) return null;
  const { code, detail } = error.driverError as { code?: unknown; detail?: unknown };
  return code === QUOTA_EXCEEDED ? Number(detail) : null;
}
