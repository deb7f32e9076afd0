import { Inject, Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import { QuotaKind, quotaLock, quotaRefusal } from '../common/account-quota';
import { ResourceNotFoundException, ValidationFailedException, type FieldErrors } from '../common/exceptions';
import { hashSecret, hashSecrets, needsRehash } from '../common/secret-hash';
import { wellFormed } from '../common/well-formed';
import { ClickWriter } from '../clicks/click-writer';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import { ChangeFeed } from '../database/change-feed';
import { Transactions, type Transaction } from '../database/transactions';
import { EventOutbox, type PendingEvents } from '../events/outbox/event-outbox';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import type { Pixel } from '../pixels/pixel.entity';
import { SpacesService } from '../spaces/spaces.service';
import { distinctNames, TagsService } from '../tags/tags.service';
import type { CreateLinkDto, UpdateLinkDto } from './dto/link.dto';
import { AliasAllocator } from './alias-allocator';
import { linkChange } from './link-cache';
import { checkPixels, LinkPixels } from './link-pixels';
import { visitFieldChanges } from './link-visit-fields';
import { LinkResponses } from './link-responses';
import { Link, LinkPrivacy } from './link.entity';
import type { LinkResponse } from './link.mapper';
import { addError, checkPeriod, checkTargeting, sent } from './link-rules';
import {
  LinksRepository,
  linksQuotaTotal,
  type InsertedLink,
  type NewLink,
  type SecretField,
} from './links.repository';
import { TitleFetcher } from './title-fetcher';

/** A new link, checked and ready to insert once its secrets are hashed, with what it refers to. */
interface PreparedLink {
  link: Link;
  alias: string | null;
  /** Null only for a link refused on its domain. */
  domain: Domain | null;
  /** Its pixels without repeats, in id order; only the account's own once the link is accepted. */
  pixels: Pixel[];
  /** Its tags' names without repeats, as given; once written, as the workspace first wrote them. */
  tags: string[];
  secrets: { password: string | null; redirectPassword: string | null };
}

/** What the links of one create refer to, by id: the account's own (or the system's), looked up together. */
interface References {
  /** Null when every link names its domain. */
  defaultDomain: Domain | null;
  domains: ReadonlyMap<number, Domain>;
  spaces: ReadonlySet<number>;
  pixels: ReadonlyMap<number, Pixel>;
  /** Whether every link must name a space: the key is restricted to some. */
  spaceRequired: boolean;
}

/** How a create names its fields: `url` alone, or `links.7.url` in a bulk, whose quota refusal names `links`. */
interface FieldNaming {
  prefix: (index: number) => string;
  quotaField: string;
  /** Writes that stand or fall with the links, in their transaction (an import's record of each link's source). */
  alongside?: (tx: Transaction, links: Link[]) => Promise<void>;
}

/**
 * The passwords (`password` and `redirect_password` alike) one bulk create or import may set: each costs a slow
 * hash of about 150 ms of a core, and they run a few at a time, so 100 take seconds rather than minutes.
 */
export const MAX_BULK_SECRETS = 100;

@Injectable()
export class LinksService {
  constructor(
    private readonly domains: DomainsService,
    private readonly spaces: SpacesService,
    private readonly tags: TagsService,
    private readonly linkPixels: LinkPixels,
    private readonly aliases: AliasAllocator,
    private readonly repository: LinksRepository,
    private readonly transactions: Transactions,
    private readonly responses: LinkResponses,
    private readonly titles: TitleFetcher,
    private readonly feed: ChangeFeed,
    private readonly clicks: ClickWriter,
    private readonly outbox: EventOutbox,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {}

  async show(owner: Owner, id: number): Promise<LinkResponse> {
    await this.clicks.settle([id]);
    const [response] = await this.responses.of(owner.accountId, [await this.find(owner, id)]);
    return response;
  }

  async create(owner: Owner, dto: CreateLinkDto): Promise<LinkResponse> {
    const [response] = await this.createAll(owner, [dto], { prefix: () => '', quotaField: 'url' });
    return response;
  }

  /**
   * Creates every link or none, in one transaction: each is checked as `create` checks one, and a refusal names
   * the item and its field (`links.7.url`, or `itemPrefix(7)` and the field). The answers come in the order of the
   * request.
   */
  async createMany(
    owner: Owner,
    dtos: CreateLinkDto[],
    itemPrefix: (index: number) => string = (index) => `links.${index}.`,
  ): Promise<LinkResponse[]> {
    checkSecretCount(dtos, itemPrefix);
    return this.createAll(owner, dtos, { prefix: itemPrefix, quotaField: 'links' });
  }

  /**
   * Links an import brings: created as `createMany` creates them (checked the same way, refusals named
   * `itemPrefix(index)` and the field), with `alongside` run in their transaction. Their titles are not looked
   * up: an import keeps what the source had.
   */
  async createImported(
    owner: Owner,
    dtos: CreateLinkDto[],
    itemPrefix: (index: number) => string,
    alongside: (tx: Transaction, links: Link[]) => Promise<void>,
  ): Promise<LinkResponse[]> {
    return this.createAll(owner, dtos, { prefix: itemPrefix, quotaField: 'links', alongside });
  }

  /**
   * One create or a bulk, set-based whatever the number of links: what they refer to is looked up once, the links
   * and their pixels are inserted in one statement (and one more per round of random aliases that collided), the
   * quota is checked once, and the answers are made from what was written rather than read back.
   */
  private async createAll(owner: Owner, dtos: CreateLinkDto[], naming: FieldNaming): Promise<LinkResponse[]> {
    const { accountId } = owner;
    const references = await this.references(owner, dtos);
    const errors: FieldErrors = {};
    const prepared = dtos.map((dto, index) =>
      prepare(accountId, dto, references, errors, naming.prefix(index)),
    );
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
    await this.hashSecrets(prepared);
    const quota = {
      lock: quotaLock(QuotaKind.Links),
      accountId,
      limit: this.quotas.maxLinksPerAccount,
    };
    const aliasField = (index: number) => `${naming.prefix(index)}alias`;
    // The link's events are written in its transaction: a single create that has none to write stays one statement.
    const eventsWanted = await this.outbox.wants(accountId, 'link.created');
    let pending: PendingEvents = [];
    try {
      if (
        prepared.length === 1 &&
        prepared[0].tags.length === 0 &&
        !eventsWanted &&
        naming.alongside === undefined
      ) {
        // One statement is a transaction of its own: the insert checks the quota and commits at once.
        await this.aliases.insert(
          prepared,
          (pending) => this.insertFree(pending, (links) => this.repository.insertChecked(links, quota)),
          aliasField,
        );
      } else {
        await this.transactions.run(async (tx) => {
          // Random aliases that collided try again within the transaction; the quota is checked after the last.
          await this.aliases.insert(
            prepared,
            (pending) => this.insertFree(pending, (links) => this.repository.insert(tx, links)),
            aliasField,
          );
          await this.repository.checkQuota(tx, quota);
          await this.tagCreated(
            tx,
            accountId,
            prepared,
            naming.quotaField === 'url' ? 'tags' : naming.quotaField,
          );
          await naming.alongside?.(
            tx,
            prepared.map(({ link }) => link),
          );
          if (eventsWanted) {
            pending = await this.outbox.record(
              tx,
              accountId,
              'link.created',
              prepared.map(({ link }) => link.id),
            );
          }
        });
      }
    } catch (error) {
      const total = linksQuotaTotal(error);
      if (total === null) throw error;
      throw quotaRefusal(
        { kind: QuotaKind.Links, limit: quota.limit, noun: 'links', field: naming.quotaField },
        total,
      );
    }
    this.created(
      prepared.map(({ link }) => link),
      naming.alongside === undefined,
    );
    const responses = await this.responses.ofNew(
      accountId,
      prepared.map(({ link, domain, pixels, tags }) => ({ link, domain: domain!, pixels, tags })),
    );
    const byId = new Map(responses.map((response) => [response.id, response]));
    await this.outbox.complete(pending, (linkId) => byId.get(linkId));
    return responses;
  }

  /**
   * The tags of links just inserted, in `tx`: the names the workspace has no tag of are made (within its quota, a
   * refusal naming `quotaField`), and each link's names become the workspace's spelling of them.
   */
  private async tagCreated(
    tx: Transaction,
    accountId: number,
    prepared: PreparedLink[],
    quotaField: string,
  ): Promise<void> {
    const tagged = prepared.filter(({ tags }) => tags.length > 0);
    if (tagged.length === 0) return;
    const names = await this.tags.tagLinks(
      tx,
      accountId,
      tagged.map(({ link, tags }) => ({ linkId: link.id, names: tags })),
      quotaField,
    );
    for (const entry of tagged) entry.tags = names.get(entry.link.id)!;
  }

  /** Inserts the links whose alias is free with `insert`; they get their ids and dates. Returns the others. */
  private async insertFree(
    pending: PreparedLink[],
    insert: (links: NewLink[]) => Promise<Map<number, InsertedLink>>,
  ): Promise<Set<PreparedLink>> {
    const inserted = await insert(
      pending.map(({ link, pixels }, item) => ({ item, link, pixelIds: pixels.map((pixel) => pixel.id) })),
    );
    const taken = new Set<PreparedLink>();
    pending.forEach((prepared, item) => {
      const row = inserted.get(item);
      if (row === undefined) taken.add(prepared);
      else Object.assign(prepared.link, row);
    });
    return taken;
  }

  /** What the links of a create refer to, looked up once for all of them: at most a query per kind. */
  private async references(owner: Owner, dtos: CreateLinkDto[]): Promise<References> {
    const { accountId } = owner;
    let defaultNeeded = false;
    const domainIds = new Set<number>();
    const spaceIds = new Set<number>();
    const pixelIds = new Set<number>();
    for (const dto of dtos) {
      const domainId = dto.domain ?? dto.domain_id ?? null;
      if (domainId === null) defaultNeeded = true;
      else domainIds.add(domainId);
      if (dto.space_id !== undefined && dto.space_id !== null && dto.space_id !== 0)
        spaceIds.add(dto.space_id);
      for (const pixelId of dto.pixel_ids ?? []) pixelIds.add(pixelId);
    }
    const [defaultDomain, domains, spaces, pixels] = await Promise.all([
      defaultNeeded ? this.domains.defaultDomain() : null,
      this.domains.usableByIds(accountId, [...domainIds]),
      this.spaces.ownedIds(owner, [...spaceIds]),
      this.linkPixels.owned(accountId, [...pixelIds]),
    ]);
    return { defaultDomain, domains, spaces, pixels, spaceRequired: owner.spaceIds !== null };
  }

  /** What follows a create's commit: visits see the new links, and titles not given are looked up. */
  private created(links: Link[], fetchTitles: boolean): void {
    for (const link of links) {
      // This instance's visits see the new link at once (an unknown alias may be cached); the others hear it.
      this.feed.publish(linkChange(link.domainId, link.alias));
      if (link.title === null && fetchTitles) this.fetchTitleLater(link);
    }
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

  async update(owner: Owner, id: number, dto: UpdateLinkDto): Promise<LinkResponse> {
    const { accountId } = owner;
    const link = await this.find(owner, id);
    const errors: FieldErrors = {};
    const spaceId = sent(dto.space_id) ? await this.checkSpace(owner, dto.space_id, errors) : link.spaceId;
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
    if (sent(dto.archived)) changes.archived = dto.archived;
    Object.assign(changes, visitFieldChanges(dto, false));
    const tags = sent(dto.tags) ? distinctNames(dto.tags) : null;

    const eventsWanted = await this.outbox.wants(accountId, 'link.updated');
    let pending: PendingEvents = [];
    await this.transactions.run(async (tx) => {
      if (!(await this.repository.update(tx, owner, id, changes))) throw new ResourceNotFoundException();
      if (targeting !== null) await this.repository.restartRotation(tx, id);
      if (pixelIds !== null) await this.linkPixels.replace(tx, id, pixelIds);
      if (tags !== null) await this.tags.tagLinks(tx, accountId, [{ linkId: id, names: tags }], 'tags');
      if (eventsWanted) pending = await this.outbox.record(tx, accountId, 'link.updated', [id]);
    });
    this.feed.publish(linkChange(link.domainId, link.alias));
    if (changes.alias !== undefined) this.feed.publish(linkChange(link.domainId, changes.alias));
    const response = await this.show(owner, id);
    await this.outbox.complete(pending, () => response);
    return response;
  }

  async remove(owner: Owner, id: number): Promise<void> {
    const eventsWanted = await this.outbox.wants(owner.accountId, 'link.deleted');
    // One statement, unless its event is written with it.
    const deleted = eventsWanted
      ? await this.transactions.run(async (tx) => {
          const row = await this.repository.remove(owner, id, tx);
          if (row !== undefined) await this.outbox.recordDeleted(tx, owner.accountId, [id]);
          return row;
        })
      : await this.repository.remove(owner, id);
    if (deleted === undefined) throw new ResourceNotFoundException();
    this.feed.publish(linkChange(deleted.domain_id, deleted.alias));
  }

  /** One of the owner's links (within its spaces), or a 404 whether it does not exist or is beyond its reach. */
  /** The owner's links among `ids`: their ids, in id order; the others are not named, as a list leaves them out. */
  ownedIds(owner: Owner, ids: readonly number[]): Promise<number[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repository.ownedIds(owner, [...ids]);
  }

  async find(owner: Owner, id: number): Promise<Link> {
    const link = await this.repository.findOwned(owner, id);
    if (link === null) throw new ResourceNotFoundException();
    return link;
  }

  /**
   * The link an alias names on a domain, matched regardless of case like the unique index, and whether it has
   * pixels: one indexed query, the first of every visit.
   */
  findByAlias(domainId: number, alias: string): Promise<{ link: Link; hasPixels: boolean } | null> {
    return this.repository.findByAlias(domainId, alias);
  }

  /**
   * After a right password: the stored hash made again with today's parameters when it was made with older ones,
   * unless the link got another password meanwhile. Returns the hash the link has now.
   */
  async upgradeSecretHash(
    linkId: number,
    field: SecretField,
    stored: string,
    secret: string,
  ): Promise<string> {
    if (!needsRehash(stored)) return stored;
    const upgraded = await hashSecret(secret);
    return (await this.repository.replaceSecretHash(linkId, field, stored, upgraded)) ? upgraded : stored;
  }

  /** The title of the target page, filled in later unless the link got one meanwhile. */
  private fetchTitleLater(link: Link): void {
    this.titles.schedule(link.url, (title) => this.repository.fillTitle(link.id, title));
  }

  private async checkSpace(
    owner: Owner,
    spaceId: number | null,
    errors: FieldErrors,
  ): Promise<number | null> {
    const owned =
      spaceId === null || spaceId === 0 ? new Set<number>() : await this.spaces.ownedIds(owner, [spaceId]);
    return checkSpace(owned, owner.spaceIds !== null, spaceId, errors);
  }
}

/**
 * A 422 on the first secret past `MAX_BULK_SECRETS`, before anything is looked up or hashed (`links.100.password`).
 */
function checkSecretCount(dtos: CreateLinkDto[], itemPrefix: (index: number) => string): void {
  let count = 0;
  for (const [index, dto] of dtos.entries()) {
    for (const field of ['password', 'redirect_password'] as const) {
      if (dto[field] === undefined || dto[field] === null) continue;
      count += 1;
      if (count > MAX_BULK_SECRETS) {
        throw ValidationFailedException.of(
          `${itemPrefix(index)}${field}`,
          `No more than ${MAX_BULK_SECRETS} passwords can be set in one request.`,
        );
      }
    }
  }
}

/**
 * The space a link is filed under (null for none: absent or 0); one the owner does not own (or cannot reach) is an
 * error, and so is none for a key restricted to spaces, which could not see the link.
 */
export function checkSpace(
  owned: ReadonlySet<number>,
  required: boolean,
  spaceId: number | null,
  errors: FieldErrors,
): number | null {
  if (spaceId === null || spaceId === 0) {
    if (required)
      addError(errors, 'space_id', 'The space id field is required for a key restricted to spaces.');
    return null;
  }
  if (!owned.has(spaceId)) addError(errors, 'space_id', 'The selected space id is invalid.');
  return spaceId;
}

/** A new link checked against what the account has (`references`), its field errors added under `prefix`. */
function prepare(
  accountId: number,
  dto: CreateLinkDto,
  references: References,
  errors: FieldErrors,
  prefix: string,
): PreparedLink {
  const own: FieldErrors = {};
  const domainField = dto.domain !== undefined && dto.domain !== null ? 'domain' : 'domain_id';
  const domainId = dto.domain ?? dto.domain_id ?? null;
  const domain = domainId === null ? references.defaultDomain : (references.domains.get(domainId) ?? null);
  if (domain === null)
    addError(own, domainField, `The selected ${domainField.replace('_', ' ')} is invalid.`);
  const spaceId = checkSpace(references.spaces, references.spaceRequired, dto.space_id ?? null, own);
  const pixelIds = checkPixels(references.pixels, dto.pixel_ids ?? [], own);
  const targeting = checkTargeting(dto.targets_type ?? null, dto.targets ?? null, own);
  checkPeriod(dto.active_period_start_at ?? null, dto.active_period_end_at ?? null, own);
  const privacy = dto.privacy ?? LinkPrivacy.Public;
  if (privacy === LinkPrivacy.Password && (dto.password ?? null) === null) {
    addError(own, 'password', 'The password field is required when privacy is 2.');
  }
  for (const [field, messages] of Object.entries(own)) errors[`${prefix}${field}`] = messages;
  const link = Object.assign(new Link(), {
    accountId,
    domainId: domain?.id,
    spaceId,
    url: dto.url,
    // As stored, so that the answer shows what a read gives.
    title: dto.title === undefined || dto.title === null ? null : wellFormed(dto.title),
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
    archived: dto.archived ?? false,
    ...visitFieldChanges(dto, true),
  });
  const pixels = pixelIds
    .flatMap((pixelId) => references.pixels.get(pixelId) ?? [])
    .sort((a, b) => a.id - b.id);
  const secrets = { password: dto.password ?? null, redirectPassword: dto.redirect_password ?? null };
  return { link, alias: dto.alias ?? null, domain, pixels, tags: distinctNames(dto.tags ?? []), secrets };
}
