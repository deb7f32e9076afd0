import { Controller, Get, Injectable, Param, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { ClickStore } from '../clicks/click-store.repository';
import { ClickWriter } from '../clicks/click-writer';
import { csvLines, csvText } from '../common/csv-cells';
import { CsvExports } from '../common/csv-stream';
import { isoDate } from '../common/dates';
import { IdPipe } from '../common/id.pipe';
import { ApiFileResponse } from '../common/openapi';
import { LinksService } from '../links/links.service';
import { ClickExportQueryDto } from './dto/stats-query.dto';
import { CLICK_COLUMNS, StatsRepository, type ClickBounds, type ClickRow } from './stats.repository';
import { dayOf, exportBounds } from './stats.service';
import { ScopedRoute } from '../auth/resource-route';

const CHUNK = 1000;

/** Where the raw clicks of an export begin. */
const HELD_SINCE_HEADER = 'Clicks-Held-Since';

@Injectable()
export class ClickExport {
  constructor(
    private readonly repository: StatsRepository,
    private readonly clicks: ClickWriter,
  ) {}

  /** A link's clicks within the bounds, oldest first, a chunk at a time through a database cursor. */
  async *rows(linkId: number, bounds: ClickBounds): AsyncGenerator<ClickRow[]> {
    await this.clicks.settle([linkId]);
    yield* this.repository.clickRows(linkId, bounds, CHUNK);
  }
}

/** Every value but the time is text a visitor sent or a lookup found, written so that no spreadsheet runs it. */
function lines(rows: ClickRow[]): string {
  return csvLines(
    rows.map((row) =>
      CLICK_COLUMNS.map((column) =>
        column === 'created_at' ? isoDate(row.created_at) : csvText(row[column] ?? ''),
      ),
    ),
  );
}

@ApiTags('stats')
@Controller('api/v1/stats')
export class ClickExportController {
  constructor(
    private readonly links: LinksService,
    private readonly clicks: ClickExport,
    private readonly exports: CsvExports,
    private readonly store: ClickStore,
  ) {}

  /** Every recorded click of the link (of the days asked), oldest first, as CSV: streamed, whatever their number. */
  @ScopedRoute('stats.read', Get(':linkId/export'), {
    operationId: 'exportLinkClicks',
    summary: 'Export a link’s clicks as CSV',
    description:
      'Every click held, or those of the days `from` to `to` (UTC, both included), validated as the stats take ' +
      'them; a side left out is not bounded.',
    errors: [404, 422],
  })
  @ApiFileResponse(
    'Every recorded click still held, oldest first, one per line after a header.',
    { 'text/csv': { type: 'string' } },
    {
      [HELD_SINCE_HEADER]: {
        description:
          'Every click from this time on is in the file: the link’s creation, or where `CLICK_RETENTION_DAYS` ' +
          'has dropped older raw clicks (its stats still count them).',
        schema: { type: 'string', format: 'date-time' },
      },
    },
  )
  async export(
    @CurrentOwner() owner: Owner,
    @Param('linkId', IdPipe) linkId: number,
    @Query() query: ClickExportQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    const link = await this.links.find(owner, linkId);
    const bounds = exportBounds(query.from, query.to, dayOf(link.createdAt));
    const dropped = await this.store.heldSince();
    const since = dropped !== null && dropped > link.createdAt ? dropped : link.createdAt;
    response.setHeader(HELD_SINCE_HEADER, isoDate(since));
    await this.exports.send(response, owner.accountId, {
      filename: `clicks-${link.id}.csv`,
      header: csvLines([[...CLICK_COLUMNS]]),
      chunks: this.clicks.rows(link.id, bounds),
      lines,
    });
  }
}
