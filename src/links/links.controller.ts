import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiFileResponse, CSV_BODY_TYPES } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { LinkResponse } from './link.mapper';
import { LinkListQueryDto } from './dto/link-list-query.dto';
import { BulkCreateLinksDto, CreateLinkDto, LINK_EXAMPLES, UpdateLinkDto } from './dto/link.dto';
import { LINK_CSV_HEADER, linkCsvLines, linksFromCsv } from './link-csv';
import { CsvExports } from '../common/csv-stream';
import { createValidationPipe, validateEach } from '../common/validation.pipe';
import { ValidationFailedException } from '../common/exceptions';
import { LinkListService } from './link-list.service';
import { LinksService } from './links.service';
import { QrQueryDto } from '../qr/qr-query.dto';
import { QrCodes } from '../qr/qr-code';
import { resourceRoutes, ScopedRoute } from '../auth/resource-route';

const routes = resourceRoutes({
  scopes: 'links',
  id: 'Link',
  one: 'a link',
  many: 'links',
  response: LinkResponse,
  object: 'link',
  examples: LINK_EXAMPLES,
});

@ApiTags('links')
@Controller('api/v1/links')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly lists: LinkListService,
    private readonly qrCodes: QrCodes,
    private readonly exports: CsvExports,
  ) {}

  @routes.list()
  async list(@CurrentOwner() owner: Owner, @Query() query: LinkListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.lists.list(owner, query));
  }

  /** Every link the list's filters find, in its order, as CSV: streamed, whatever the number of links. */
  @ScopedRoute('links.read', Get('export'), {
    operationId: 'exportLinks',
    summary: 'Export links as CSV',
    description: 'Takes the list’s parameters; `page` and `per_page` are not read.',
    errors: [422],
  })
  @ApiFileResponse('The links, one per line after a header.', { 'text/csv': { type: 'string' } })
  async export(
    @CurrentOwner() owner: Owner,
    @Query() query: LinkListQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    await this.exports.send(response, owner.accountId, {
      filename: 'links.csv',
      header: LINK_CSV_HEADER,
      chunks: this.lists.exportRows(owner, query),
      lines: linkCsvLines,
    });
  }

  /** The CSV of an export (or one like it) back: up to 1,000 links, created as a bulk create creates them. */
  @ScopedRoute('links.write', Post('import'), {
    operationId: 'importLinks',
    summary: 'Import links from CSV',
    description:
      'A CSV body (`text/csv`) with the export’s columns; up to 1,000 links, all created or none. A refusal names ' +
      'each row by the line of the file it starts on, the header being line 1 (`line.3.url`).',
    body: CSV_BODY_TYPES,
  })
  // Without an alias, as a bulk create's example: the same example can be imported again.
  @ApiBody({ schema: { type: 'string', example: 'url,title\nhttps://example.com/,Spring sale\n' } })
  @ApiDataResponse(LinkResponse, { status: 201, isArray: true })
  async import(@CurrentOwner() owner: Owner, @Req() request: Request) {
    if (!Buffer.isBuffer(request.body)) {
      throw ValidationFailedException.of('file', 'The file must be sent as a text/csv body.');
    }
    const { bodies, lines } = linksFromCsv(request.body);
    const dto = (await createValidationPipe().transform(
      { links: bodies },
      { type: 'body', metatype: BulkCreateLinksDto },
    )) as BulkCreateLinksDto;
    // A refusal names the line of the file, as the editor that opens it counts them: `line.3.url`.
    const line = (index: number) => lines[index];
    return dataEnvelope(
      await this.links.createMany(
        owner,
        await validateEach(CreateLinkDto, dto.links, 'line', line),
        (index) => `line.${line(index)}.`,
      ),
    );
  }

  /** The QR code of the link's short URL: SVG, or PNG with `format=png`. */
  @ScopedRoute('links.read', Get(':id/qr'), {
    operationId: 'showLinkQrCode',
    summary: 'The QR code of a link',
    errors: [404, 422],
  })
  @ApiFileResponse('The QR code of the short URL.', {
    'image/svg+xml': { type: 'string' },
    'image/png': { type: 'string', format: 'binary' },
  })
  async qr(
    @CurrentOwner() owner: Owner,
    @Param('id', IdPipe) id: number,
    @Query() query: QrQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    const link = await this.links.show(owner, id);
    await this.qrCodes.send(response, link.short_url, query);
  }

  @routes.show()
  async show(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.links.show(owner, id));
  }

  /** Up to 1,000 links in one transaction: all are created, or none and a 422 names the item and field. */
  @ScopedRoute('links.write', Post('bulk'), {
    operationId: 'createLinks',
    summary: 'Create up to 1,000 links',
    description: 'In one transaction: all are created, or none and a 422 names the item and field.',
    body: true,
    example: LINK_EXAMPLES.bulk,
  })
  @ApiDataResponse(LinkResponse, { status: 201, isArray: true })
  async storeMany(@CurrentOwner() owner: Owner, @Body() dto: BulkCreateLinksDto) {
    return dataEnvelope(
      await this.links.createMany(owner, await validateEach(CreateLinkDto, dto.links, 'links')),
    );
  }

  @routes.create()
  async store(@CurrentOwner() owner: Owner, @Body() dto: CreateLinkDto) {
    return dataEnvelope(await this.links.create(owner, dto));
  }

  @routes.replace()
  replace(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateLinkDto) {
    return this.updated(owner, id, dto);
  }

  @routes.patch()
  update(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Body() dto: UpdateLinkDto) {
    return this.updated(owner, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(owner: Owner, id: number, dto: UpdateLinkDto) {
    return dataEnvelope(await this.links.update(owner, id, dto));
  }

  @routes.remove()
  async destroy(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    await this.links.remove(owner, id);
    return deletedEnvelope(id, 'link');
  }
}
