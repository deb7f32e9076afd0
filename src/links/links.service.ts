import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type EntityManager } from 'typeorm';
import { checkQuota, QuotaKind, type Quota } from '../common/account-quota';
import { ResourceNotFoundException, ValidationFailedException, type FieldErrors } from '../common/exceptions';
import { hashSecret, hashSecrets, needsRehash } from '../common/secret-hash';
import { ClickWriter } from '../clicks/click-writer';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import { ChangeFeed } from '../database/change-feed';
import { DomainsService } from '../domains/domains.service';
import { SpacesService } from '../spaces/spaces.service';
import type { CreateLinkDto, UpdateLinkDto } from './dto/link.dto';
import { AliasAllocator } from './alias-allocator';
import { linkChange } from './link-cache';
import { LinkPixels } from './link-pixels';
import { LinkResponses } from './link-responses';
import { Link, LinkPrivacy } from './link.entity';
import type { LinkResponse } from './link.mapper';
import { addError, checkPeriod, checkTargeting, sent } from './link-rules';
import { TitleFetcher } from './title-fetcher';

/**
 * The account's links: the counts committed, and this transaction's own changes, which are added to the counts
 * only as it commits.
 */
const COUNT_LINKS = `
  SELECT (SELECT COALESCE(sum(links), 0) FROM link_counts WHERE account_id = $1)::int
       + (SELECT COALESCE(sum(links), 0) FROM link_count_changes
           WHERE xid = pg_current_xact_id() AND account_id = $1)::int AS total`;

/** A new link, checked and ready to insert once its secrets are hashed. */
interface PreparedLink {
  link: Link;
  alias: string | null;
  pixelIds: number[];
  secrets: { password: string | null; redirectPassword: string | null };
}

/**
 * The passwords (`password` and `redirect_password` alike) one bulk create or import may set: each costs a slow
 * hash of about 150 ms of a core, and they run a few at a time, so 100 take seconds rather than minutes.
 */
export const MAX_BULK_SECRETS = 100;

@Injectable()
export class LinksService {
  constructor(
    @InjectRepository(Link) private readonly links: Repository<Link>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly domains: DomainsService,
    private readonly spaces: SpacesService,
    private readonly linkPixels: LinkPixels,
    private readonly aliases: AliasAllocator,
    private readonly responses: LinkResponses,
    private readonly titles: TitleFetcher,
    private readonly feed: ChangeFeed,
    private readonly clicks: ClickWriter,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {}

  async show(accountId: number, id: number): Promise<LinkResponse> {
    await this.clicks.settle([id]);
    const [response] = await this.responses.of(accountId, [await this.find(accountId, id)]);
    return response;
  }

  async create(accountId: number, dto: CreateLinkDto): Promise<LinkResponse> {
    const errors: FieldErrors = {};
    const prepared = await this.prepare(accountId, dto, errors, '');
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
    await this.hashSecrets([prepared]);
    await this.insert(prepared, null);
    this.created([prepared.link]);
    return this.show(accountId, prepared.link.id);
  }

  /**
   * Creates every link or none, in one transaction: each is checked as `create` checks one, and a refusal names
   * the item and its field (`links.7.url`). The answers come in the order of the request.
   */
  async createMany(accountId: number, dtos: CreateLinkDto[]): Promise<LinkResponse[]> {
    checkSecretCount(dtos);
    const errors: FieldErrors = {};
    const prepared: PreparedLink[] = [];
    for (const [index, dto] of dtos.entries()) {
      prepared.push(await this.prepare(accountId, dto, errors, `links.${index}.`));
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
    await this.hashSecrets(prepared);
    await this.dataSource.transaction(async (manager) => {
      for (const [index, item] of prepared.entries()) {
        await this.insert(item, manager, `links.${index}.alias`);
      }
      await checkQuota(manager, this.linkQuota('links'), accountId);
    });
    const links = prepared.map((item) => item.link);
    this.created(links);
    return this.responses.ofIds(
      accountId,
      links.map((link) => link.id),
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
    const pixelIds = await this.linkPixels.check(accountId, dto.pixel_ids ?? [], own);
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
      passwordHash: null,
      redirectPasswordHash: null,
      activePeriodStartAt: dto.active_period_start_at ?? null,
      activePeriodEndAt: dto.active_period_end_at ?? null,
      clicksLimit: dto.clicks_limit === undefined || dto.clicks_limit === 0 ? null : dto.clicks_limit,
      expirationUrl: dto.expiration_url ?? null,
      disabled: dto.disabled ?? false,
    });
    const secrets = { password: dto.password ?? null, redirectPassword: dto.redirect_password ?? null };
    return { link, alias: dto.alias ?? null, pixelIds, secrets };
  }

  /** The hashes of prepared links' secrets, made once every link is known to be valid. */
  private async hashSecrets(prepared: PreparedLink[]): Promise<void> {
    const fields: { link: Link; field: 'passwordHash' | 'redirectPasswordHash'; secret: string }[] = [];
    for (const { link, secrets } of prepared) {
      if (secrets.password !== null) fields.push({ link, field: 'passwordHash', secret: secrets.password });
      if (secrets.redirectPassword !== null) {
        fields.push({ link, field: 'redirectPasswordHash', secret: secrets.redirectPassword });
      }
    }
    const hashes = await hashSecrets(fields.map(({ secret }) => secret));
    for (const [index, { link, field }] of fields.entries()) link[field] = hashes[index];
  }

  async update(accountId: number, id: number, dto: UpdateLinkDto): Promise<LinkResponse> {
    const link = await this.find(accountId, id);
    const errors: FieldErrors = {};
    const spaceId = sent(dto.space_id)
      ? await this.checkSpace(accountId, dto.space_id, errors)
      : link.spaceId;
    const pixelIds = sent(dto.pixel_ids)
      ? await this.linkPixels.check(accountId, dto.pixel_ids, errors)
      : null;
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
    // Both side by side, as far as the hashing turns allow.
    const [passwordHash, redirectPasswordHash] = await Promise.all(
      [dto.password, dto.redirect_password].map((secret) =>
        typeof secret === 'string' ? hashSecret(secret) : Promise.resolve(null),
      ),
    );
    if (sent(dto.password)) changes.passwordHash = passwordHash;
    if (sent(dto.redirect_password)) changes.redirectPasswordHash = redirectPasswordHash;
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
      if (pixelIds !== null) await this.linkPixels.replace(manager, id, pixelIds);
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

  /**
   * Inserts a prepared link with its pixels, under the alias it asked for or a random one. Alone (no `manager`), it
   * checks the account's quota in its own transaction; a bulk checks once, after its last insert.
   */
  private insert(prepared: PreparedLink, manager: EntityManager | null, aliasField?: string): Promise<void> {
    const { link, alias, pixelIds } = prepared;
    const insert = async (inner: EntityManager) => {
      await inner.save(link);
      await this.linkPixels.replace(inner, link.id, pixelIds);
      if (manager === null) await checkQuota(inner, this.linkQuota('url'), link.accountId);
    };
    return this.aliases.insert(link, alias, insert, manager, aliasField);
  }

  /** The account's limit of links, refused under `field`. */
  private linkQuota(field: string): Quota {
    return {
      kind: QuotaKind.Links,
      limit: this.quotas.maxLinksPerAccount,
      noun: 'links',
      field,
      count: COUNT_LINKS,
    };
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
}

/**
 * A 422 on the first secret past `MAX_BULK_SECRETS`, before anything is looked up or hashed (`links.100.password`).
 */
function checkSecretCount(dtos: CreateLinkDto[]): void {
  let count = 0;
  for (const [index, dto] of dtos.entries()) {
    for (const field of ['password', 'redirect_password'] as const) {
      if (dto[field] === undefined || dto[field] === null) continue;
      count += 1;
      if (count > MAX_BULK_SECRETS) {
        throw ValidationFailedException.of(
          `links.${index}.${field}`,
          `No more than ${MAX_BULK_SECRETS} passwords can be set in one request.`,
        );
      }
    }
  }
}
