import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomInt } from 'node:crypto';
import { DataSource, In, Repository, type EntityManager } from 'typeorm';
import { MAX_ID } from '../common/validation';
import { isUniqueViolation, takenMessage } from '../common/database-errors';
import { ResourceNotFoundException, ValidationFailedException, type FieldErrors } from '../common/exceptions';
import type { Page } from '../common/pagination';
import { hashSecret, needsRehash } from '../common/secret-hash';
import { ClickWriter } from '../clicks/click-writer';
import { ChangeFeed } from '../database/change-feed';
import { cursorRows } from '../database/cursor';
import { DATABASE_CONNECTION, type DatabaseConnection } from '../database/database.module';
import { toDomainSummary } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import { toPixelResponse, type PixelResponse } from '../pixels/pixel.mapper';
import { PixelsService } from '../pixels/pixels.service';
import { SpacesService } from '../spaces/spaces.service';
import type { LinkListQueryDto } from './dto/link-list-query.dto';
import type { CreateLinkDto, UpdateLinkDto } from './dto/link.dto';
import { countersOf } from './link-counter.entity';
import { linkChange } from './link-cache';
import type { LinkExportRow } from './link-csv';
import {
  catchUpListedClicks,
  linkCountQuery,
  linkPageQuery,
  readsListedClicks,
  type LinkCounts,
  type LinkListFilter,
  type LinkListOrder,
  type Sql,
} from './link-list';
import { LinkPixel } from './link-pixel.entity';
import { LinkStatus } from './link-status';
import { LINK_ALIAS_UNIQUE, Link, LinkPrivacy } from './link.entity';
import { toLinkResponse, type LinkResponse } from './link.mapper';
import { addError, checkPeriod, checkTargeting, sent } from './link-rules';
import { isReservedAlias } from './reserved-aliases';
import { TitleFetcher } from './title-fetcher';

const RANDOM_ALIAS_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const RANDOM_ALIAS_LENGTH = 5;
const RANDOM_ALIAS_ATTEMPTS = 8;

function randomAlias(length: number): string {
  let alias = '';
  for (let index = 0; index < length; index += 1) alias += RANDOM_ALIAS_ALPHABET[randomInt(36)];
  return alias;
}

/** What a list query asks for, as the list's SQL takes it. */
function listOf(
  accountId: number,
  query: LinkListQueryDto,
): { filter: LinkListFilter; order: LinkListOrder } {
  return {
    filter: {
      accountId,
      search:
        query.search === undefined || query.search === null
          ? null
          : { by: query.search_by ?? 'title', term: query.search },
      status: query.status === undefined || query.status === null || query.status === 0 ? null : query.status,
      spaceId: query.space_id ?? null,
      domainId: query.domain_id ?? null,
      pixelId: query.pixel_id ?? null,
    },
    order: { by: query.sort_by ?? 'id', direction: query.direction() },
  };
}

/** Links read for an export at a time: one statement each, beside the cursor that finds them. */
const EXPORT_CHUNK = 1000;

/** A new link, checked and ready to insert. */
interface PreparedLink {
  link: Link;
  alias: string | null;
  pixelIds: number[];
}

@Injectable()
export class LinksService {
  constructor(
    @InjectRepository(Link) private readonly links: Repository<Link>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly domains: DomainsService,
    private readonly spaces: SpacesService,
    private readonly pixels: PixelsService,
    private readonly titles: TitleFetcher,
    private readonly feed: ChangeFeed,
    private readonly clicks: ClickWriter,
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
  ) {}

  async list(accountId: number, query: LinkListQueryDto): Promise<Page<LinkResponse>> {
    // Every visit this instance answered is counted in what the list shows and sorts by.
    await this.clicks.settle();
    const { page, perPage } = query.pageRequest();
    const { filter, order } = listOf(accountId, query);
    await this.catchUp(filter, order);
    const { ids: pageIds, total } = await this.pageAndTotal(filter, order, (page - 1) * perPage, perPage);
    const rows =
      pageIds.length === 0
        ? []
        : await this.links.find({ where: { accountId, id: In(pageIds) }, relations: { counter: true } });
    const byId = new Map(rows.map((link) => [link.id, link]));
    // A link deleted between the two reads is left out rather than shown half.
    const links = pageIds.flatMap((id) => byId.get(id) ?? []);
    return { items: await this.respond(accountId, links), total };
  }

  /** The listed clicks of the account brought up to date, for a list that sorts or filters by them. */
  private async catchUp(filter: LinkListFilter, order: LinkListOrder): Promise<void> {
    if (!readsListedClicks(filter, order)) return;
    const statement = catchUpListedClicks(filter.accountId);
    await this.dataSource.query(statement.text, statement.values);
  }

  /**
   * The ids of a page and the total. The total comes first: it chooses how to read the page, and a page past the
   * end needs no reading. Expired links are read whole for either, so both go at once.
   */
  private async pageAndTotal(
    filter: LinkListFilter,
    order: LinkListOrder,
    offset: number,
    limit: number,
  ): Promise<{ ids: number[]; total: number }> {
    const count = linkCountQuery(filter);
    const countAll = async () => (await this.dataSource.query<LinkCounts[]>(count.text, count.values))[0];
    const idsOf = async (page: Sql) =>
      (await this.dataSource.query<{ id: number }[]>(page.text, page.values)).map((row) => row.id);
    if (filter.status === LinkStatus.Expired) {
      const [ids, counts] = await Promise.all([
        idsOf(linkPageQuery(filter, order, offset, limit)),
        countAll(),
      ]);
      return { ids, total: counts.count };
    }
    const counts = await countAll();
    if (counts.count <= offset) return { ids: [], total: counts.count };
    return { ids: await idsOf(linkPageQuery(filter, order, offset, limit, counts)), total: counts.count };
  }

  /**
   * The links a list with these filters and this order finds, every page of them, a chunk at a time, through a
   * database cursor: an export of any size holds one chunk in memory. The list's own statement finds the ids in
   * its order and the exported columns are joined to them, so that the download is one statement (on the embedded
   * database, whose one session a cursor would hold, a statement per chunk).
   */
  async *exportRows(accountId: number, query: LinkListQueryDto): AsyncGenerator<LinkExportRow[]> {
    await this.clicks.settle();
    const { filter, order } = listOf(accountId, query);
    await this.catchUp(filter, order);
    const ids = linkPageQuery(filter, order, 0, MAX_ID);
    // Every domain a link of the account can have, read before the cursor opens.
    const domainIds = await this.dataSource.query<{ id: number }[]>(
      'SELECT id FROM domains WHERE account_id = $1 OR account_id IS NULL',
      [accountId],
    );
    const domains = await this.domains.findByIds(domainIds.map((row) => row.id));
    const urls = new Map(
      [...domains.values()].map((domain) => [domain.id, toDomainSummary(domain, this.domains.scheme).url]),
    );
    const rows = `
      SELECT l.id, l.alias, l.url, l.title, l.domain_id, l.space_id,
             (SELECT string_agg(lp.pixel_id::text, ' ' ORDER BY lp.pixel_id) FROM link_pixels lp
               WHERE lp.link_id = l.id) AS pixel_ids,
             l.targets_type, l.targets, l.sensitive_content, l.privacy, l.active_period_start_at,
             l.active_period_end_at, l.clicks_limit, l.expiration_url, l.disabled,
             COALESCE(c.clicks, 0) AS clicks, l.created_at
        FROM (SELECT found.id, row_number() OVER () AS ord FROM (${ids.text}) AS found) AS page
        JOIN links l ON l.id = page.id
        LEFT JOIN link_counters c ON c.link_id = l.id
       ORDER BY page.ord`;
    for await (const chunk of cursorRows<Omit<LinkExportRow, 'short_url'>>(
      this.dataSource,
      rows,
      ids.values,
      EXPORT_CHUNK,
      this.connection,
    )) {
      yield chunk.map((row) => ({ ...row, short_url: `${urls.get(row.domain_id)}/${row.alias}` }));
    }
  }

  async show(accountId: number, id: number): Promise<LinkResponse> {
    await this.clicks.settle([id]);
    const [response] = await this.respond(accountId, [await this.find(accountId, id)]);
    return response;
  }

  async create(accountId: number, dto: CreateLinkDto): Promise<LinkResponse> {
    const errors: FieldErrors = {};
    const prepared = await this.prepare(accountId, dto, errors, '');
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
    await this.insertWithAlias(prepared.link, prepared.alias, prepared.pixelIds, null);
    this.created([prepared.link]);
    return this.show(accountId, prepared.link.id);
  }

  /**
   * Creates every link or none, in one transaction: each is checked as `create` checks one, and a refusal names
   * the item and its field (`links.7.url`). The answers come in the order of the request.
   */
  async createMany(accountId: number, dtos: CreateLinkDto[]): Promise<LinkResponse[]> {
    const errors: FieldErrors = {};
    const prepared: PreparedLink[] = [];
    for (const [index, dto] of dtos.entries()) {
      prepared.push(await this.prepare(accountId, dto, errors, `links.${index}.`));
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
    await this.dataSource.transaction(async (manager) => {
      for (const [index, item] of prepared.entries()) {
        await this.insertWithAlias(item.link, item.alias, item.pixelIds, manager, `links.${index}.alias`);
      }
    });
    const links = prepared.map((item) => item.link);
    this.created(links);
    const stored = await this.links.find({
      where: { accountId, id: In(links.map((link) => link.id)) },
      relations: { counter: true },
    });
    const byId = new Map(stored.map((link) => [link.id, link]));
    return this.respond(
      accountId,
      links.map((link) => byId.get(link.id)!),
    );
  }

  /** What follows a create's commit: visits see the new links, and titles not given are looked up. */
  private created(links: Link[]): void {
    for (const link of links) {
      // This instance's visits see the new link at once (an unknown alias may be cached); the others hear it.
      this.feed.publish(linkChange(link.domainId, link.alias));
      if (link.title === null) this.fetchTitleLater(link);
    }
  }

  /** A new link checked against the account's resources, its field errors added under `prefix`. */
  private async prepare(
    accountId: number,
    dto: CreateLinkDto,
    errors: FieldErrors,
    prefix: string,
  ): Promise<PreparedLink> {
    const own: FieldErrors = {};
    const domainField = dto.domain !== undefined && dto.domain !== null ? 'domain' : 'domain_id';
    const domainId = dto.domain ?? dto.domain_id ?? null;
    const domain =
      domainId === null
        ? await this.domains.defaultDomain()
        : await this.domains.usableBy(accountId, domainId);
    if (domain === null)
      addError(own, domainField, `The selected ${domainField.replace('_', ' ')} is invalid.`);
    const spaceId = await this.checkSpace(accountId, dto.space_id ?? null, own);
    const pixelIds = await this.checkPixels(accountId, dto.pixel_ids ?? [], own);
    const targeting = checkTargeting(dto.targets_type ?? null, dto.targets ?? null, own);
    checkPeriod(dto.active_period_start_at ?? null, dto.active_period_end_at ?? null, own);
    const privacy = dto.privacy ?? LinkPrivacy.Public;
    if (privacy === LinkPrivacy.Password && (dto.password ?? null) === null) {
      addError(own, 'password', 'The password field is required when privacy is 2.');
    }
    for (const [field, messages] of Object.entries(own)) errors[`${prefix}${field}`] = messages;
    const link = this.links.create({
      accountId,
      domainId: domain?.id,
      spaceId,
      url: dto.url,
      title: dto.title ?? null,
      targetsType: targeting.type,
      targets: targeting.targets,
      sensitiveContent: dto.sensitive_content ?? false,
      privacy,
      passwordHash:
        dto.password === undefined || dto.password === null ? null : await hashSecret(dto.password),
      redirectPasswordHash:
        dto.redirect_password === undefined || dto.redirect_password === null
          ? null
          : await hashSecret(dto.redirect_password),
      activePeriodStartAt: dto.active_period_start_at ?? null,
      activePeriodEndAt: dto.active_period_end_at ?? null,
      clicksLimit: dto.clicks_limit === undefined || dto.clicks_limit === 0 ? null : dto.clicks_limit,
      expirationUrl: dto.expiration_url ?? null,
      disabled: dto.disabled ?? false,
    });
    return { link, alias: dto.alias ?? null, pixelIds };
  }

  async update(accountId: number, id: number, dto: UpdateLinkDto): Promise<LinkResponse> {
    const link = await this.find(accountId, id);
    const errors: FieldErrors = {};
    const spaceId = sent(dto.space_id)
      ? await this.checkSpace(accountId, dto.space_id, errors)
      : link.spaceId;
    const pixelIds = sent(dto.pixel_ids) ? await this.checkPixels(accountId, dto.pixel_ids, errors) : null;
    // Sending either targeting field replaces the whole targeting.
    const targeting =
      sent(dto.targets_type) || sent(dto.targets)
        ? checkTargeting(
            sent(dto.targets_type) ? dto.targets_type : link.targetsType,
            sent(dto.targets) ? dto.targets : null,
            errors,
          )
        : null;
    const start = sent(dto.active_period_start_at) ? dto.active_period_start_at : link.activePeriodStartAt;
    const end = sent(dto.active_period_end_at) ? dto.active_period_end_at : link.activePeriodEndAt;
    checkPeriod(start, end, errors);
    const privacy = dto.privacy ?? link.privacy;
    const passwordSet = sent(dto.password) ? dto.password !== null : link.passwordHash !== null;
    if (privacy === LinkPrivacy.Password && !passwordSet) {
      addError(errors, 'password', 'The password field is required when privacy is 2.');
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);

    // Only what was sent is written: a column another request changed meanwhile keeps its new value.
    const changes: Partial<Link> = { privacy, activePeriodStartAt: start, activePeriodEndAt: end, spaceId };
    if (sent(dto.url)) changes.url = dto.url;
    if (sent(dto.alias) && dto.alias !== null) changes.alias = dto.alias;
    if (sent(dto.title)) changes.title = dto.title;
    if (targeting !== null) {
      changes.targetsType = targeting.type;
      changes.targets = targeting.targets;
    }
    if (sent(dto.sensitive_content)) changes.sensitiveContent = dto.sensitive_content;
    if (sent(dto.password))
      changes.passwordHash = dto.password === null ? null : await hashSecret(dto.password);
    if (sent(dto.redirect_password)) {
      changes.redirectPasswordHash =
        dto.redirect_password === null ? null : await hashSecret(dto.redirect_password);
    }
    if (sent(dto.clicks_limit)) changes.clicksLimit = dto.clicks_limit === 0 ? null : dto.clicks_limit;
    if (sent(dto.expiration_url)) changes.expirationUrl = dto.expiration_url;
    if (sent(dto.disabled)) changes.disabled = dto.disabled;

    await this.dataSource.transaction(async (manager) => {
      const { affected } = await manager.update(Link, { id, accountId }, changes);
      if (affected === 0) throw new ResourceNotFoundException();
      // New targets start their rotation afresh; the counters themselves are never written from here.
      if (targeting !== null) {
        await manager.query('UPDATE link_counters SET last_rotation = NULL WHERE link_id = $1', [id]);
      }
      if (pixelIds !== null) await this.replacePixels(manager, id, pixelIds);
    });
    this.feed.publish(linkChange(link.domainId, link.alias));
    if (changes.alias !== undefined) this.feed.publish(linkChange(link.domainId, changes.alias));
    return this.show(accountId, id);
  }

  async remove(accountId: number, id: number): Promise<void> {
    const result = await this.links
      .createQueryBuilder()
      .delete()
      .where({ id, accountId })
      .returning(['domain_id', 'alias'])
      .execute();
    const [deleted] = result.raw as { domain_id: number; alias: string }[];
    if (deleted === undefined) throw new ResourceNotFoundException();
    this.feed.publish(linkChange(deleted.domain_id, deleted.alias));
  }

  async find(accountId: number, id: number): Promise<Link> {
    const link = await this.links.findOne({ where: { id, accountId }, relations: { counter: true } });
    if (link === null) throw new ResourceNotFoundException();
    return link;
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

  /**
   * After a right password: the stored hash made again with today's parameters when it was made with older ones,
   * unless the link got another password meanwhile. Returns the hash the link has now.
   */
  async upgradeSecretHash(
    linkId: number,
    field: 'passwordHash' | 'redirectPasswordHash',
    stored: string,
    secret: string,
  ): Promise<string> {
    if (!needsRehash(stored)) return stored;
    const upgraded = await hashSecret(secret);
    const { affected } = await this.links
      .createQueryBuilder()
      .update(Link)
      .set({ [field]: upgraded })
      .where({ id: linkId, [field]: stored })
      .execute();
    return affected === 1 ? upgraded : stored;
  }

  /** A link's pixels, for the page that loads them. */
  async pixelsOf(linkId: number): Promise<PixelResponse[]> {
    const rows = await this.dataSource.getRepository(LinkPixel).find({
      where: { linkId },
      relations: { pixel: true },
      order: { pixelId: 'ASC' },
    });
    return rows.flatMap((row) => (row.pixel === undefined ? [] : [toPixelResponse(row.pixel)]));
  }

  /**
   * Inserts the link with the alias asked for, or with a random one that grows a character per collision. Inside
   * `manager`'s transaction each attempt is a savepoint, so a collision undoes that attempt alone; a taken alias
   * that was asked for is refused under `aliasField`.
   */
  private async insertWithAlias(
    link: Link,
    alias: string | null,
    pixelIds: number[],
    manager: EntityManager | null,
    aliasField = 'alias',
  ): Promise<void> {
    let length = RANDOM_ALIAS_LENGTH;
    for (let attempt = 0; attempt < RANDOM_ALIAS_ATTEMPTS; attempt += 1) {
      link.alias = alias ?? randomAlias(length);
      if (alias === null && isReservedAlias(link.alias)) continue;
      try {
        await (manager ?? this.dataSource.manager).transaction(async (inner) => {
          await inner.save(link);
          await this.replacePixels(inner, link.id, pixelIds);
        });
        return;
      } catch (error) {
        if (!isUniqueViolation(error, LINK_ALIAS_UNIQUE)) throw error;
        // In a bulk request, the field is the item's (`links.7.alias`).
        if (alias !== null) throw ValidationFailedException.of(aliasField, takenMessage('alias'));
        // The failed insert may have assigned an id: start the next attempt clean.
        delete (link as Partial<Link>).id;
        length += 1;
      }
    }
    throw new Error(`No free random alias after ${RANDOM_ALIAS_ATTEMPTS} attempts`);
  }

  private async replacePixels(manager: EntityManager, linkId: number, pixelIds: number[]): Promise<void> {
    await manager.delete(LinkPixel, { linkId });
    if (pixelIds.length > 0)
      await manager.insert(
        LinkPixel,
        pixelIds.map((pixelId) => ({ linkId, pixelId })),
      );
  }

  /** The title of the target page, filled in later unless the link got one meanwhile. */
  private fetchTitleLater(link: Link): void {
    this.titles.schedule(link.url, (title) =>
      this.dataSource.query('UPDATE links SET title = $1 WHERE id = $2 AND title IS NULL', [title, link.id]),
    );
  }

  private async checkSpace(
    accountId: number,
    spaceId: number | null,
    errors: FieldErrors,
  ): Promise<number | null> {
    if (spaceId === null || spaceId === 0) return null;
    if (!(await this.spaces.owns(accountId, spaceId)))
      addError(errors, 'space_id', 'The selected space id is invalid.');
    return spaceId;
  }

  private async checkPixels(accountId: number, pixelIds: number[], errors: FieldErrors): Promise<number[]> {
    const owned = await this.pixels.findOwned(accountId, pixelIds);
    pixelIds.forEach((pixelId, index) => {
      if (!owned.has(pixelId)) addError(errors, `pixel_ids.${index}`, 'The selected pixel is invalid.');
    });
    return [...new Set(pixelIds)];
  }

  /** Responses for links, with their domain, space and pixels read in one query each. */
  private async respond(accountId: number, links: Link[]): Promise<LinkResponse[]> {
    if (links.length === 0) return [];
    const linkIds = links.map((link) => link.id);
    const spaceIds = [...new Set(links.flatMap((link) => (link.spaceId === null ? [] : [link.spaceId])))];
    const [domains, spaces, pixelRows] = await Promise.all([
      this.domains.findByIds([...new Set(links.map((link) => link.domainId))]),
      this.spaces.responsesByIds(accountId, spaceIds),
      this.dataSource.getRepository(LinkPixel).find({
        where: { linkId: In(linkIds) },
        relations: { pixel: true },
        order: { pixelId: 'ASC' },
      }),
    ]);
    const pixelsByLink = new Map<number, PixelResponse[]>();
    for (const row of pixelRows) {
      if (row.pixel === undefined) continue;
      const list = pixelsByLink.get(row.linkId) ?? [];
      list.push(toPixelResponse(row.pixel));
      pixelsByLink.set(row.linkId, list);
    }
    return links.map((link) =>
      toLinkResponse(link, {
        counter: countersOf(link),
        domain: toDomainSummary(domains.get(link.domainId)!, this.domains.scheme),
        space: link.spaceId === null ? null : (spaces.get(link.spaceId) ?? null),
        pixels: pixelsByLink.get(link.id) ?? [],
      }),
    );
  }
}
