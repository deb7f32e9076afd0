import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Owner } from '../auth/owner';
import type { Page } from '../common/pagination';
import { MAX_ID } from '../common/validation';
import { ClickWriter } from '../clicks/click-writer';
import { cursorRows } from '../database/cursor';
import { DATABASE_CONNECTION, type DatabaseConnection } from '../database/database.module';
import { toDomainSummary } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import type { LinkListQueryDto } from './dto/link-list-query.dto';
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
import { LinkResponses } from './link-responses';
import { LinkStatus } from './status/link-status';
import type { LinkResponse } from './link.mapper';

/** What a list query asks for, as the list's SQL takes it. */
function listOf(owner: Owner, query: LinkListQueryDto): { filter: LinkListFilter; order: LinkListOrder } {
  return {
    filter: {
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
    },
    order: { by: query.sort_by ?? 'id', direction: query.direction() },
  };
}

/** Links read for an export at a time: one statement each, beside the cursor that finds them. */
const EXPORT_CHUNK = 1000;

/** The account's links as lists and exports read them: filtered, searched, ordered, paged or streamed. */
@Injectable()
export class LinkListService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly domains: DomainsService,
    private readonly responses: LinkResponses,
    private readonly clicks: ClickWriter,
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
  ) {}

  async list(owner: Owner, query: LinkListQueryDto): Promise<Page<LinkResponse>> {
    // Every visit this instance answered is counted in what the list shows and sorts by.
    await this.clicks.settle();
    const { page, perPage } = query.pageRequest();
    const { filter, order } = listOf(owner, query);
    await this.catchUp(filter, order);
    const { ids: pageIds, total } = await this.pageAndTotal(filter, order, (page - 1) * perPage, perPage);
    return { items: await this.responses.ofIds(owner.accountId, pageIds), total };
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
  async *exportRows(owner: Owner, query: LinkListQueryDto): AsyncGenerator<LinkExportRow[]> {
    await this.clicks.settle();
    const { filter, order } = listOf(owner, query);
    await this.catchUp(filter, order);
    const ids = linkPageQuery(filter, order, 0, MAX_ID);
    // Every domain a link of the account can have, read before the cursor opens.
    const domainIds = await this.dataSource.query<{ id: number }[]>(
      'SELECT id FROM domains WHERE account_id = $1 OR account_id IS NULL',
      [owner.accountId],
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
}
