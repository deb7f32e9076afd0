import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount, CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { dataEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiListResponse, ApiWholeOrPagedListResponse } from '../common/openapi';
import { mapPage, paginatedEnvelope } from '../common/pagination';
import { LinksService } from '../links/links.service';
import { ClickResponse, clickResponse } from './click.mapper';
import {
  isClicksOverTime,
  PeriodListQueryDto,
  RollupsQueryDto,
  StatsQueryDto,
  WorkspaceStatsQueryDto,
} from './dto/stats-query.dto';
import type { StatsScope } from './stats.repository';
import {
  dayOf,
  defaultOrder,
  LinkRollups,
  MAX_LISTED_CLICKS,
  statsRange,
  StatsRow,
  StatsService,
} from './stats.service';
import { ScopedRoute } from '../auth/resource-route';

@ApiTags('stats')
@Controller('api/v1/stats')
export class StatsController {
  constructor(
    private readonly stats: StatsService,
    private readonly links: LinksService,
  ) {}

  /** The stored rollups of up to 100 links at once: what an import from this instance reads its history from. */
  @ScopedRoute('stats.read', Get('rollups'), {
    operationId: 'showLinkRollups',
    summary: 'The stored click rollups of links',
    description:
      'Every hour with clicks, and every day, dimension and value with clicks, of each of the caller’s links ' +
      'among `link_ids`, as stored (country `GB`, city `GB:London`, null for unknown): what an import from this ' +
      'service reads (contract §12). Other ids are left out, as a list leaves them out.',
    errors: [422],
  })
  @ApiDataResponse(LinkRollups, { isArray: true })
  async rollups(@CurrentOwner() owner: Owner, @Query() query: RollupsQueryDto) {
    // A filter, as a list's: ids of links the caller may not read are left out, as ids that do not exist.
    return dataEnvelope(await this.stats.rollups(await this.links.ownedIds(owner, query.link_ids ?? [])));
  }

  /**
   * The stats of every link of the workspace the filters keep (contract §14), in a link's shapes: a key restricted
   * to spaces counts its spaces' links alone. From the day the workspace was made, by default.
   */
  @ScopedRoute('stats.read', Get(), {
    operationId: 'showWorkspaceStats',
    summary: 'The workspace’s clicks, over time or by a dimension',
    description:
      'The clicks of every link of the workspace, or of those that `space_id`, `domain_id`, `tag` and ' +
      '`link_ids[]` (up to 5) keep, answered as a link’s stats are: `click` in one whole list, a dimension a page ' +
      'at a time. Archived links are counted; ids of links, spaces or domains that are not the caller’s match ' +
      'nothing, as a list’s filters do. From the day the workspace was made, by default.',
    errors: [422],
  })
  @ApiWholeOrPagedListResponse(
    StatsRow,
    '`{"data", "status"}` holding every bucket for `click`; the list envelope, a page of values, for a dimension.',
  )
  async workspace(
    @CurrentAccount() account: Account,
    @CurrentOwner() owner: Owner,
    @Query() query: WorkspaceStatsQueryDto,
    @Req() request: Request,
  ) {
    const scope = {
      accountId: owner.accountId,
      reach: owner.spaceIds,
      spaceId: query.space_id ?? null,
      domainId: query.domain_id ?? null,
      tags: query.tag === undefined || query.tag.length === 0 ? null : query.tag,
      linkIds: query.link_ids ?? null,
    };
    return this.answer(scope, query, dayOf(account.createdAt), request);
  }

  /**
   * As phpShort answers it: `click`, every bucket that has clicks, oldest first, in one `{"data", "status"}`; a
   * dimension, a page of its values, highest count first, in the list envelope.
   */
  @ScopedRoute('stats.read', Get(':linkId'), {
    operationId: 'showLinkStats',
    summary: 'A link’s clicks, over time or by a dimension',
    description:
      '`click`: one whole list, per hour (`Y-m-d H`) when `from` equals `to`, per day (`Y-m-d`) under 90 days, ' +
      'per month (`Y-m`) under 730, per year (`Y`) beyond, oldest first; `per_page` and `page` are not read. A ' +
      'dimension: a page of its values (`per_page` 10 by default), highest count first, searched and sorted ' +
      'before the page is cut.',
    errors: [404, 422],
  })
  @ApiWholeOrPagedListResponse(
    StatsRow,
    '`{"data", "status"}` holding every bucket for `click`; the list envelope, a page of values, for a dimension.',
  )
  async show(
    @CurrentOwner() owner: Owner,
    @Param('linkId', IdPipe) linkId: number,
    @Query() query: StatsQueryDto,
    @Req() request: Request,
  ) {
    const link = await this.links.find(owner, linkId);
    return this.answer({ linkId: link.id }, query, dayOf(link.createdAt), request);
  }

  /** The link's clicks themselves, a page at a time: the visits behind its stats. */
  @ScopedRoute('stats.read', Get(':linkId/clicks'), {
    operationId: 'listLinkClicks',
    summary: 'A link’s clicks, newest first',
    description:
      'Each click of the days `from` to `to` (UTC, both included; by default from the day the link was made to ' +
      'today), newest first (`sort=asc`: oldest first), with what the click export writes of it and the URL it ' +
      `was sent to. Paged at most ${MAX_LISTED_CLICKS.toLocaleString('en')} clicks deep: a deeper \`page\` is a ` +
      '422; narrow `from` and `to`, or export the clicks. Clicks dropped by `CLICK_RETENTION_DAYS` are not listed.',
    errors: [404, 422],
  })
  @ApiListResponse(ClickResponse)
  async clicks(
    @CurrentOwner() owner: Owner,
    @Param('linkId', IdPipe) linkId: number,
    @Query() query: PeriodListQueryDto,
    @Req() request: Request,
  ) {
    const link = await this.links.find(owner, linkId);
    const page = query.pageRequest();
    const range = statsRange(query.from, query.to, dayOf(link.createdAt));
    const clicks = await this.stats.listClicks(link.id, range, page, query.sort ?? 'desc');
    return paginatedEnvelope(request, page, mapPage(clicks, clickResponse));
  }

  /** A report of the scope's clicks as asked, from `firstDay` unless `from` says otherwise. */
  private async answer(scope: StatsScope, query: StatsQueryDto, firstDay: Date, request: Request) {
    const range = statsRange(query.from, query.to, firstDay);
    const name = query.name ?? 'click';
    const defaults = defaultOrder(name);
    const order = {
      search: query.search ?? null,
      sortBy: query.sort_by ?? defaults.sortBy,
      direction: query.sort ?? defaults.direction,
    };
    if (isClicksOverTime(name)) {
      return dataEnvelope((await this.stats.report(scope, name, range, order, null)).items);
    }
    const page = query.pageRequest();
    return paginatedEnvelope(request, page, await this.stats.report(scope, name, range, order, page));
  }
}
