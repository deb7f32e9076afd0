import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainsModule } from '../domains/domains.module';
import { LinksModule } from '../links/links.module';
import { PixelsModule } from '../pixels/pixels.module';
import { SpacesModule } from '../spaces/spaces.module';
import { ImportJob } from './import-job.entity';
import { ImportPageWriter } from './import-page';
import { ReferenceServices } from './import-references';
import { EVERY_WORKSPACE, IMPORT_RUNNER_SCOPE, ImportRunner } from './import-runner';
import { DEFAULT_IMPORT_ADDRESS_POLICY, IMPORT_ADDRESS_POLICY, ImportSources } from './import-sources';
import { ImportsController } from './imports.controller';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

/** Imports from other shorteners (contract §12): the API, the background runner and a source adapter per shortener. */
@Module({
  imports: [TypeOrmModule.forFeature([ImportJob]), LinksModule, SpacesModule, PixelsModule, DomainsModule],
  controllers: [ImportsController],
  exports: [ImportsService, ImportRunner],
  providers: [
    { provide: IMPORT_ADDRESS_POLICY, useValue: DEFAULT_IMPORT_ADDRESS_POLICY },
    { provide: IMPORT_RUNNER_SCOPE, useValue: EVERY_WORKSPACE },
    ImportsService,
    ImportsRepository,
    ImportRunner,
    ImportSources,
    ImportPageWriter,
    ReferenceServices,
  ],
})
export class ImportsModule {}
