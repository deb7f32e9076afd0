import { ConflictException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { RecentOutage } from '../database/recent-outage';
import { ResourceNotFoundException } from '../common/exceptions';
import { mapPage, type Page } from '../common/pagination';
import { quotasConfig, serverConfig, type QuotasConfig, type ServerConfig } from '../config/app-config';
import { ChangeFeed, EVERYTHING } from '../database/change-feed';
import { DOMAIN_IN_USE, type Domain } from './domain.entity';
import { toDomainResponse, type DomainResponse } from './domain.mapper';
import type { DomainListQueryDto } from './dto/domain-list-query.dto';
import type { CreateDomainDto, UpdateDomainDto } from './dto/domain.dto';
import { DomainsRepository } from './domains.repository';
import { canonicalHost } from './hostname';

/** The announcement of a change to any domain (see the migration's trigger). */
export const DOMAINS_CHANGED = 'domains';
const MAX_CACHED_HOSTS = 1000;

@Injectable()
export class DomainsService {
  /** `http:` or `https:`, as APP_URL says: the scheme of every short URL. */
  readonly scheme: string;
  private readonly defaultHost: string;
  /** Domains by the Host headers of visits that name them, as written, while changes can be heard (ChangeFeed). */
  private readonly hosts = new Map<string, Domain>();
  /** Host headers, as written, that name no domain (addresses, other names): they mean {@link fallback}. */
  private readonly strangers = new Set<string>();
  private fallback: Domain | null = null;
  /**
   * The domain each Host header last meant, kept when the feed is lost (unlike {@link hosts}): what a visit gets
   * while the database cannot answer, rather than an error. A change of any domain forgets it.
   */
  private readonly lastKnown = new Map<string, Domain>();
  /** The domain of APP_URL, which every link without a domain gets, while changes can be heard. */
  private systemDomain: Domain | null = null;
  private changes = 0;

  constructor(
    private readonly domains: DomainsRepository,
    @Inject(serverConfig.KEY) config: ServerConfig,
    private readonly feed: ChangeFeed,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
    private readonly outage: RecentOutage,
  ) {
    const appUrl = new URL(config.appUrl);
    this.scheme = appUrl.protocol;
    this.defaultHost = appUrl.host;
    feed.subscribe((change) => {
      if (change === EVERYTHING || change === DOMAINS_CHANGED) {
        this.changes += 1;
        if (change === DOMAINS_CHANGED) this.lastKnown.clear();
        this.hosts.clear();
        this.strangers.clear();
        this.fallback = null;
        this.systemDomain = null;
      }
    });
  }

  /** The host of APP_URL, as a system domain. Made at start; idempotent, and safe when replicas start together. */
  async ensureDefaultDomain(): Promise<Domain> {
    await this.domains.ensureSystemDomain(this.defaultHost);
    return this.defaultDomain();
  }

  /** The domain of APP_URL: from memory while changes can be heard (a create without a domain asks for it). */
  async defaultDomain(): Promise<Domain> {
    if (this.systemDomain !== null && this.feed.fresh) return this.systemDomain;
    const before = this.changes;
    const domain = await this.domains.findByNameOrFail(this.defaultHost);
    if (this.feed.listening && this.changes === before) this.systemDomain = domain;
    return domain;
  }

  /**
   * The domain for a request's Host header; an unknown host means the default domain (the contract's rule, and what
   * a load balancer's health check by address, or a client that sends no Host, needs).
   */
  async forHost(host: string | undefined): Promise<Domain> {
    const cached = this.cachedForHost(host);
    if (cached !== undefined) return cached;
    // While the database is away (failing over, say): the domain this host last meant, if it was ever known.
    return this.outage.orLastKnown(this.lastKnown.get(host ?? ''), () => this.readForHost(host));
  }

  private async readForHost(host: string | undefined): Promise<Domain> {
    const before = this.changes;
    const name = host === undefined ? null : canonicalHost(host);
    const named = name === null ? null : await this.domains.findByName(name);
    const domain = named ?? (this.feed.fresh ? this.fallback : null) ?? (await this.defaultDomain());
    // Hosts come from visitors: made-up ones replace each other rather than grow memory or push domains out.
    const key = host ?? '';
    if (this.lastKnown.size >= MAX_CACHED_HOSTS) this.lastKnown.clear();
    this.lastKnown.set(key, domain);
    if (this.feed.listening && this.changes === before) {
      if (named !== null) {
        if (this.hosts.size >= MAX_CACHED_HOSTS) this.hosts.clear();
        this.hosts.set(key, named);
      } else {
        if (this.strangers.size >= MAX_CACHED_HOSTS) this.strangers.clear();
        this.strangers.add(key);
        this.fallback = domain;
      }
    }
    return domain;
  }

  /** The domain of a Host header as it was written, when it is in memory (no parsing, no query). */
  cachedForHost(host: string | undefined): Domain | undefined {
    if (!this.feed.fresh) return undefined;
    const key = host ?? '';
    const named = this.hosts.get(key);
    if (named !== undefined) return named;
    return this.fallback !== null && this.strangers.has(key) ? this.fallback : undefined;
  }

  /** A domain the account may put links on: one of its own or a system domain; null otherwise. */
  async usableBy(accountId: number, id: number): Promise<Domain | null> {
    return this.domains.usableBy(accountId, id);
  }

  /** The domains among `ids` that the account may put links on ({@link usableBy}), by id: one query for any number. */
  async usableByIds(accountId: number, ids: number[]): Promise<Map<number, Domain>> {
    if (ids.length === 0) return new Map();
    const rows = await this.domains.usableByIds(accountId, ids);
    return new Map(rows.map((domain) => [domain.id, domain]));
  }

  /** The domain of a host name, whoever holds it; null when none does. */
  async findByName(host: string): Promise<Domain | null> {
    const name = canonicalHost(host);
    return name === null ? null : this.domains.findByName(name);
  }

  async findByIds(ids: number[]): Promise<Map<number, Domain>> {
    if (ids.length === 0) return new Map();
    const rows = await this.domains.findByIds(ids);
    return new Map(rows.map((domain) => [domain.id, domain]));
  }

  async list(accountId: number, query: DomainListQueryDto): Promise<Page<DomainResponse>> {
    return mapPage(await this.domains.list(accountId, query), (domain) =>
      toDomainResponse(domain, this.scheme),
    );
  }

  async show(accountId: number, id: number): Promise<DomainResponse> {
    const domain = await this.usableBy(accountId, id);
    if (domain === null) throw new ResourceNotFoundException();
    return toDomainResponse(domain, this.scheme);
  }

  async create(accountId: number, dto: CreateDomainDto): Promise<DomainResponse> {
    const domain = await this.domains.createWithinQuota(
      {
        accountId,
        name: canonicalHost(dto.name)!,
        indexPage: dto.index_page ?? null,
        notFoundPage: dto.not_found_page ?? null,
        appleAppSiteAssociation: dto.apple_app_site_association ?? null,
        assetlinks: dto.assetlinks ?? null,
      },
      this.quotas.maxDomainsPerAccount,
    );
    this.feed.publish(DOMAINS_CHANGED);
    return this.show(accountId, domain.id);
  }

  async update(accountId: number, id: number, dto: UpdateDomainDto): Promise<DomainResponse> {
    const domain = await this.owned(accountId, id);
    if (dto.index_page !== undefined) domain.indexPage = dto.index_page;
    if (dto.not_found_page !== undefined) domain.notFoundPage = dto.not_found_page;
    if (dto.apple_app_site_association !== undefined) {
      domain.appleAppSiteAssociation = dto.apple_app_site_association;
    }
    if (dto.assetlinks !== undefined) domain.assetlinks = dto.assetlinks;
    await this.domains.save(domain);
    this.feed.publish(DOMAINS_CHANGED);
    return this.show(accountId, id);
  }

  /** A domain that still has links stays: its short URLs are out in the world. */
  async remove(accountId: number, id: number): Promise<void> {
    const domain = await this.owned(accountId, id);
    if (await this.domains.hasLinks(domain.id)) throw new ConflictException(DOMAIN_IN_USE);
    // A link made between the check and the delete: the foreign key refuses, with the same answer (the error
    // filter gives it, see LINK_DOMAIN_FOREIGN_KEY).
    await this.domains.delete(domain.id);
    this.feed.publish(DOMAINS_CHANGED);
  }

  /** One of the account's own domains; a system domain can be seen but not changed. */
  private async owned(accountId: number, id: number): Promise<Domain> {
    const domain = await this.usableBy(accountId, id);
    if (domain === null) throw new ResourceNotFoundException();
    if (domain.accountId === null) throw new ForbiddenException('A system domain cannot be changed.');
    return domain;
  }
}
