import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiEndpoint } from '../common/openapi';
import { LinksService } from '../links/links.service';
import { StatsQueryDto } from './dto/stats-query.dto';
import { dayOf, defaultOrder, statsRange, StatsRow, StatsService } from './stats.service';

@ApiTags('stats')
@Controller('api/v1/stats')
export class StatsController {
  constructor(
    private readonly stats: StatsService,
    private readonly links: LinksService,
  ) {}

  /**
   * As phpShort answers it: `{"data": [{"value", "count"}], "status": 200}`, every value that has clicks, in one
   * list. `click`: per hour, day, month or year, oldest first; a dimension: highest count first.
   */
  @ApiEndpoint({
    operationId: 'showLinkStats',
    summary: 'A link’s clicks, over time or by a dimension',
    description:
      '`click`: per hour (`Y-m-d H`) when `from` equals `to`, per day (`Y-m-d`) under 90 days, per month (`Y-m`) ' +
      'under 730, per year (`Y`) beyond, oldest first. A dimension: its values, highest count first.',
    errors: [404, 422],
  })
  @ApiDataResponse(StatsRow, { isArray: true })
  @Get(':linkId')
  async show(
    @CurrentAccount() account: Account,
    @Param('linkId', IdPipe) linkId: number,
    @Query() query: StatsQueryDto,
  ) {
    const link = await this.links.find(account.id, linkId);
    const range = statsRange(query.from, query.to, dayOf(link.createdAt));
    const name = query.name ?? 'click';
    const order = defaultOrder(name);
    const rows = await this.stats.report(
      link.id,
      name,
      range,
      {
        search: query.search ?? null,
        sortBy: query.sort_by ?? order.sortBy,
        direction: query.sort ?? order.direction,
      },
      null,
    );
    return dataEnvelope(rows.items);
  }
}
