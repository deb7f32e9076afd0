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
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { LinkListQueryDto } from './dto/link-list-query.dto';
import { BulkCreateLinksDto, CreateLinkDto, UpdateLinkDto } from './dto/link.dto';
import { LINK_CSV_HEADER, linkCsvLines, linksFromCsv } from './link-csv';
import { sendCsv } from '../common/csv-stream';
import { createValidationPipe } from '../common/validation.pipe';
import { ValidationFailedException } from '../common/exceptions';
import { LinkListService } from './link-list.service';
import { LinksService } from './links.service';
import { QrQueryDto } from '../qr/qr-query.dto';
import { sendQr } from '../qr/qr-code';

@ApiTags('links')
@ApiBearerAuth()
@Controller('api/v1/links')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly lists: LinkListService,
  ) {}

  @Get()
  async list(@CurrentAccount() account: Account, @Query() query: LinkListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.lists.list(account.id, query));
  }

  /** Every link the list's filters find, in its order, as CSV: streamed, whatever the number of links. */
  @Get('export')
  async export(
    @CurrentAccount() account: Account,
    @Query() query: LinkListQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    await sendCsv(
      response,
      'links.csv',
      LINK_CSV_HEADER,
      this.lists.exportRows(account.id, query),
      linkCsvLines,
    );
  }

  /** The CSV of an export (or one like it) back: up to 1,000 links, created as a bulk create creates them. */
  @Post('import')
  async import(@CurrentAccount() account: Account, @Req() request: Request) {
    if (typeof request.body !== 'string') {
      throw ValidationFailedException.of('file', 'The file must be sent as a text/csv body.');
    }
    const dto = (await createValidationPipe().transform(
      { links: linksFromCsv(request.body) },
      { type: 'body', metatype: BulkCreateLinksDto },
    )) as BulkCreateLinksDto;
    return dataEnvelope(await this.links.createMany(account.id, dto.links));
  }

  /** The QR code of the link's short URL: SVG, or PNG with `format=png`. */
  @Get(':id/qr')
  async qr(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Query() query: QrQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    const link = await this.links.show(account.id, id);
    await sendQr(response, link.short_url, query);
  }

  @Get(':id')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.links.show(account.id, id));
  }

  /** Up to 1,000 links in one transaction: all are created, or none and a 422 names the item and field. */
  @Post('bulk')
  async storeMany(@CurrentAccount() account: Account, @Body() dto: BulkCreateLinksDto) {
    return dataEnvelope(await this.links.createMany(account.id, dto.links));
  }

  @Post()
  async store(@CurrentAccount() account: Account, @Body() dto: CreateLinkDto) {
    return dataEnvelope(await this.links.create(account.id, dto));
  }

  @Put(':id')
  async replace(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateLinkDto,
  ) {
    return dataEnvelope(await this.links.update(account.id, id, dto));
  }

  @Patch(':id')
  async update(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdateLinkDto,
  ) {
    return dataEnvelope(await this.links.update(account.id, id, dto));
  }

  @Delete(':id')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.links.remove(account.id, id);
    return deletedEnvelope(id, 'link');
  }
}
