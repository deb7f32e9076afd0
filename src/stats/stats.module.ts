import { Module } from '@nestjs/common';
import { ClicksModule } from '../clicks/clicks.module';
import { CsvExportModule } from '../common/csv-stream';
import { LinksModule } from '../links/links.module';
import { ClickExport, ClickExportController } from './click-export';
import { ClickSeries } from './click-series';
import { StatsController } from './stats.controller';
import { StatsRepository } from './stats.repository';
import { StatsService } from './stats.service';

@Module({
  imports: [LinksModule, ClicksModule, CsvExportModule],
  controllers: [StatsController, ClickExportController],
  providers: [StatsService, StatsRepository, ClickExport, ClickSeries],
  exports: [StatsService, ClickSeries],
})
export class StatsModule {}
