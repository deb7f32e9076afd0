import { Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import type { Page } from '../common/pagination';
import { ClickWriter } from '../clicks/click-writer';
import { toDomainSummary } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import { TagsService } from '../tags/tags.service';
import type { LinkFilters, LinkListQueryDto } from './dto/link-list-query.dto';
import type { Transaction } from '../database/transactions';
import type { LinkExportRow } from './link-csv';
import { LinkListRepository, type LinkListFilter, type LinkListOrder } from './link-list.repository';
import { LinkResponses } from './link-responses';
import { LinkStatus } from './status/link-status';
import { CHECK_STATUS_NAMES, checkStatusOf } from './health/link-check.entity';
import type { LinkResponse } from './link.mapper';

/** What a list query's filters ask for, as the list's SQL takes it, its tags named by id (`tagIds`). */
function filterOf(owner: Owner, query: LinkFilters, tagIds: number[] | null): LinkListFilter {
  return {
    accountId: owner.accountId,
    reach: owner.spaceIds,
    search:
      query.search === undefined || query.search === null
        ? null
        : { by: query.search_by ?? 'title', term: query.search },
    status: query.status === undefined || query.status === null || query.status === 0 ? null : query.status,
    spaceId: query.space_id ?? null,
    domainId: query.domain_id ?? null,
    pixelId: query.pixel_id ?? null,
    tagIds,
    archived: query.archived ?? false,
    health: query.health === undefined || query.health === null ? null : checkStatusOf(query.health),
  };
}

/** The order a bulk change finds its links in. */
const BY_ID: LinkListOrder = { by: 'id', direction: 'ASC' };

/** Links read for an export at a time: one statement each, beside the cursor that finds them. */
const EXPORT_CHUNK = 1000;

/** The account's links as lists and exports read them: filtered, searched, ordered, paged or streamed. */
@Injectable()
export class LinkListService {
  constructor(
    private readonly repository: LinkListRepository,
    private readonly domains: DomainsService,
    private readonly responses: LinkResponses,
    private readonly clicks: ClickWriter,
    private readonly tags: TagsService,
  ) {}

  /** What a list query asks for, its tags looked up by name. */
  private async listOf(
    owner: Owner,
    query: LinkListQueryDto,
  ): Promise<{ filter: LinkListFilter; order: LinkListOrder }> {
    return {
      filter: await this.filterOf(owner, query),
      order: { by: query.sort_by ?? 'id', direction: query.direction() },
    };
  }

  /** What the filters of a list (or of a bulk change) ask for, its tags looked up by name. */
  private async filterOf(owner: Owner, filters: LinkFilters): Promise<LinkListFilter> {
    const tagIds =
      filters.tag === undefined || filters.tag.length === 0
        ? null
        : await this.tags.idsByNames(owner.accountId, filters.tag);
    const filter = filterOf(owner, filters, tagIds);
    // Most accounts never archive: their lists then leave nothing out (one look at the archive's index).
    if (!filter.archived) filter.noneArchived = !(await this.repository.hasArchived(owner.accountId));
    return filter;
  }

  /**
   * What a bulk change's filter asks for, as a list with it would find its links: its tags looked up, and every
   * visit counted in the listed clicks its status reads.
   */
  async changeFilter(owner: Owner, filters: LinkFilters): Promise<LinkListFilter> {
    await this.clicks.settle();
    const filter = await this.filterOf(owner, filters);
    await this.repository.catchUp(filter, BY_ID);
    return filter;
  }

  /** The ids of the links `filter` finds, every page, in id order, up to `limit` of them: read in `tx`. */
  foundIds(tx: Transaction, filter: LinkListFilter, limit: number): Promise<number[]> {
    return this.repository.foundIds(tx, filter, BY_ID, limit);
  }

  async list(owner: Owner, query: LinkListQueryDto): Promise<Page<LinkResponse>> {
    // Every visit this instance answered is counted in what the list shows and sorts by.
    await this.clicks.settle();
    const { page, perPage } = query.pageRequest();
    const { filter, order } = await this.listOf(owner, query);
    await this.repository.catchUp(filter, order);
    const { ids: pageIds, total } = await this.pageAndTotal(filter, order, (page - 1) * perPage, perPage);
    return { items: await this.responses.ofIds(owner.accountId, pageIds), total };
  }

  /**
   * The ids of a page and the total. A search that finds few links answers both from one reading of its matches.
   * Otherwise the total comes first: it chooses how to read the page, and a page past the end needs no reading.
   * Expired links are read whole for either, so both go at once.
   */
  private async pageAndTotal(
    filter: LinkListFilter,
    order: LinkListOrder,
    offset: number,
    limit: number,
  ): Promise<{ ids: number[]; total: number }> {
    if (filter.status === LinkStatus.Expired) {
      const [ids, counts] = await Promise.all([
        this.repository.pageIds(filter, order, offset, limit),
        this.repository.counts(filter),
      ]);
      return { ids, total: counts.count };
    }
    if (filter.search !== null) {
      const found = await this.repository.foundPage(filter, order, offset, limit);
      if (found !== null) return found;
    }
    const counts = await this.repository.counts(filter);
    if (counts.count <= offset) return { ids: [], total: counts.count };
    return { ids: await this.repository.pageIds(filter, order, offset, limit, counts), total: counts.count };
  }

  /**
   * The links a list with these filters and this order finds, every page of them, a chunk at a time, through a
   * database cursor: an export of any size holds one chunk in memory.
   */
  async *exportRows(owner: Owner, query: LinkListQueryDto): AsyncGenerator<LinkExportRow[]> {
    await this.clicks.settle();
    const { filter, order } = await this.listOf(owner, query);
    await this.repository.catchUp(filter, order);
    // Every domain a link of the account can have, read before the cursor opens.
    const domains = await this.domains.findByIds(await this.repository.domainIds(owner.accountId));
    const urls = new Map(
      [...domains.values()].map((domain) => [domain.id, toDomainSummary(domain, this.domains.scheme).url]),
    );
    for await (const chunk of this.repository.exportRows(filter, order, EXPORT_CHUNK)) {
      yield chunk.map((row) => ({
        ...row,
        short_url: `${urls.get(row.domain_id)}/${row.alias}`,
        health: CHECK_STATUS_NAMES[row.health],
      }));
    }
  }
}
