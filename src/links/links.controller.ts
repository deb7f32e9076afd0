import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { mediaTypeOf } from '../common/media-type.interceptor';
import {
  ApiDataResponse,
  ApiDeletedResponse,
  ApiFileResponse,
  CSV_BODY_TYPES,
  IMAGE_BODY_TYPES,
} from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { LinkResponse, LinksDeletedResponse, LinksUpdatedResponse } from './link.mapper';
import { LinkListQueryDto } from './dto/link-list-query.dto';
import { BulkCreateLinksDto, CreateLinkDto, LINK_EXAMPLES, UpdateLinkDto } from './dto/link.dto';
import {
  BULK_EXAMPLES,
  bulkLinks,
  BulkLinksDto,
  BulkUpdateLinksDto,
  MAX_BULK_IDS,
} from './dto/link-bulk.dto';
import { LINK_CSV_HEADER, linkCsvLines, linksFromCsv } from './link-csv';
import { CsvExports } from '../common/csv-stream';
import { createValidationPipe, validateEach } from '../common/validation.pipe';
import { ValidationFailedException } from '../common/exceptions';
import { LinkBulkService, MAX_FILTERED_LINKS } from './link-bulk.service';
import { LinkListService } from './link-list.service';
import { LinksService } from './links.service';
import { QrQueryDto } from '../qr/qr-query.dto';
import { QrCodes } from '../qr/qr-code';
import { QrLogos } from '../qr/qr-logos.service';
import { QR_LOGO_BODY, QrLogoResponse, toQrLogoResponse } from '../qr/qr-logo.mapper';
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
    private readonly bulk: LinkBulkService,
    private readonly qrCodes: QrCodes,
    private readonly qrLogos: QrLogos,
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

  /** The QR code of the link's short URL: SVG, or PNG with `format=png`, in the colours, style and logo asked for. */
  @ScopedRoute('links.read', Get(':id/qr'), {
    operationId: 'showLinkQrCode',
    summary: 'The QR code of a link',
    description:
      'A pair of colours below 4.5 to 1 in contrast is a 422 on `fg`. With `logo=1`, the link’s logo or else the ' +
      'workspace’s is drawn in the middle, over at most half of what the error correction (`Q`, or `H` by ' +
      'default) can correct; an SVG logo in SVG codes only.',
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
    await this.qrCodes.send(response, { text: link.short_url, linkId: link.id }, query);
  }

  /** The link's own logo for its QR codes, in place of any it had: the image itself as the body. */
  @ScopedRoute('links.write', Put(':id/qr-logo'), {
    operationId: 'putLinkQrLogo',
    summary: 'Upload the logo of a link’s QR codes',
    description:
      'The body is the image itself, `image/png` (at most 1024 by 1024 pixels) or `image/svg+xml` (without ' +
      'scripts, event handlers, animations, foreign objects or references outside itself), at most 64 KB (413 ' +
      'beyond). Drawn with `logo=1` in place of the workspace’s.',
    body: IMAGE_BODY_TYPES,
    errors: [404],
  })
  @ApiBody(QR_LOGO_BODY)
  @ApiDataResponse(QrLogoResponse)
  async putQrLogo(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number, @Req() request: Request) {
    const link = await this.links.find(owner, id);
    const logo = await this.qrLogos.putForLink(link.id, request.body, mediaTypeOf(request));
    return dataEnvelope(toQrLogoResponse(logo));
  }

  /** Removes the link's own logo, whether or not it had one: its codes draw the workspace's again. */
  @ScopedRoute('links.write', Delete(':id/qr-logo'), {
    operationId: 'deleteLinkQrLogo',
    summary: 'Remove the logo of a link’s QR codes',
    description: 'Answers the same whether or not the link had a logo; `logo=1` then draws the workspace’s.',
    errors: [404],
  })
  @HttpCode(200)
  @ApiDeletedResponse('qr_logo')
  async deleteQrLogo(@CurrentOwner() owner: Owner, @Param('id', IdPipe) id: number) {
    const link = await this.links.find(owner, id);
    await this.qrLogos.removeForLink(link.id);
    return deletedEnvelope(link.id, 'qr_logo');
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

  /**
   * Changes many links at once, named by id or by the list's filters, in one transaction: all, or none and a 422.
   * Declared before the routes of one link, whose `:id` would take `bulk` for an id.
   */
  @ScopedRoute('links.write', Patch('bulk'), {
    operationId: 'updateLinks',
    summary: 'Change many links at once',
    description:
      `The links by \`ids\` (up to ${MAX_BULK_IDS}) or by \`filter\` (every link the list finds with it, up to ` +
      `${MAX_FILTERED_LINKS.toLocaleString('en')}), and \`changes\`: a space, the archive, tags added or taken ` +
      'off. In one transaction: every link changes, or none and a 422 (an id that is not the caller’s, or outside ' +
      'its spaces, is a 422 on `ids`). Each link changed is a `link.updated` event and an entry of the audit log, ' +
      'and the request one more, `link.bulk_updated`.',
    body: true,
    example: BULK_EXAMPLES.update,
  })
  @ApiDataResponse(LinksUpdatedResponse)
  async updateMany(@CurrentOwner() owner: Owner, @Body() dto: BulkUpdateLinksDto) {
    return dataEnvelope({ updated: await this.bulk.update(owner, bulkLinks(dto), dto.changes) });
  }

  /** Deletes many links at once, named by id or by the list's filters, in one transaction: all, or none. */
  @ScopedRoute('links.write', Delete('bulk'), {
    operationId: 'deleteLinks',
    summary: 'Delete many links at once',
    description:
      `The links by \`ids\` (up to ${MAX_BULK_IDS}) or by \`filter\` (every link the list finds with it, up to ` +
      `${MAX_FILTERED_LINKS.toLocaleString('en')}). In one transaction: every link is deleted, or none and a 422 ` +
      '(an id that is not the caller’s, or outside its spaces, is a 422 on `ids`); their short links answer 404 ' +
      'at once. Each link deleted is a `link.deleted` event and an entry of the audit log, and the request one ' +
      'more, `link.bulk_deleted`.',
    body: true,
    example: BULK_EXAMPLES.remove,
  })
  @ApiDataResponse(LinksDeletedResponse)
  async destroyMany(@CurrentOwner() owner: Owner, @Body() dto: BulkLinksDto) {
    return dataEnvelope({ deleted: await this.bulk.remove(owner, bulkLinks(dto)) });
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
