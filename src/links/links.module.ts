import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ClicksModule } from '../clicks/clicks.module';
import { CsvExportModule } from '../common/csv-stream';
import { Transactions } from '../database/transactions';
import { DomainsModule } from '../domains/domains.module';
import { PixelsModule } from '../pixels/pixels.module';
import { QrModule } from '../qr/qr.module';
import { SpacesModule } from '../spaces/spaces.module';
import { TagsModule } from '../tags/tags.module';
import { AliasAllocator } from './alias-allocator';
import { LinkBulkRepository } from './link-bulk.repository';
import { LinkBulkService } from './link-bulk.service';
import { LinkCache } from './link-cache';
import { LinkCounter } from './link-counter.entity';
import { LinkListRepository } from './link-list.repository';
import { LinkListService } from './link-list.service';
import { LinkPixel } from './link-pixel.entity';
import { LinkPixels } from './link-pixels';
import { LinkPixelsRepository } from './link-pixels.repository';
import { LinkResponses } from './link-responses';
import { Link } from './link.entity';
import { LinksController } from './links.controller';
import { LinksRepository } from './links.repository';
import { LinksService } from './links.service';
import { DEFAULT_TITLE_FETCH_OPTIONS, TITLE_FETCH_OPTIONS, TitleFetcher } from './title-fetcher';
import { VisitLinkRepository } from './visit-link.repository';
import {
  DEFAULT_LINK_CHECKER_OPTIONS,
  EVERY_LINK,
  LINK_CHECK_SCOPE,
  LINK_CHECKER_OPTIONS,
  LinkHealthChecker,
} from './health/link-health-checker';
import { LinkHealthRepository } from './health/link-health.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([Link, LinkPixel, LinkCounter]),
    DomainsModule,
    SpacesModule,
    TagsModule,
    PixelsModule,
    ClicksModule,
    QrModule,
    CsvExportModule,
    AuditModule,
  ],
  controllers: [LinksController],
  providers: [
    LinksService,
    LinkBulkService,
    LinkBulkRepository,
    LinkListService,
    LinkListRepository,
    LinkPixels,
    LinkPixelsRepository,
    LinkResponses,
    AliasAllocator,
    LinksRepository,
    Transactions,
    LinkCache,
    VisitLinkRepository,
    TitleFetcher,
    { provide: TITLE_FETCH_OPTIONS, useValue: DEFAULT_TITLE_FETCH_OPTIONS },
    LinkHealthRepository,
    LinkHealthChecker,
    { provide: LINK_CHECKER_OPTIONS, useValue: DEFAULT_LINK_CHECKER_OPTIONS },
    { provide: LINK_CHECK_SCOPE, useValue: EVERY_LINK },
  ],
  exports: [LinksService, LinkPixels, LinkCache, LinkResponses],
})
export class LinksModule {}
