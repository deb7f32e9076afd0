import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { LinksService } from '../links/links.service';
import { StatsQueryDto } from './dto/stats-query.dto';
import { statsRange, StatsService } from './stats.service';

@ApiTags('stats')
@ApiBearerAuth()
@Controller('api/v1/stats')
export class StatsController {
  constructor(
    private readonly stats: StatsService,
    private readonly links: LinksService,
  ) {}

  /** `[{"value", "count"}]`: clicks per day, or per value of a dimension, highest first. */
  @Get(':linkId')
  async show(
    @CurrentAccount() account: Account,
    @Param('linkId', IdPipe) linkId: number,
    @Query() query: StatsQueryDto,
    @Req() request: Request,
  ) {
    const link = await this.links.find(account.id, linkId);
    const range = statsRange(query.from, query.to);
    const page = query.pageRequest();
    return paginatedEnvelope(
      request,
      page,
      await this.stats.query(link.id, query.name ?? 'clicks', range, page),
    );
  }
}
