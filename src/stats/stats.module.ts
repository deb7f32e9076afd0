import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClicksModule } from '../clicks/clicks.module';
import { CsvExportModule } from '../common/csv-stream';
import { LinksModule } from '../links/links.module';
import { Click } from './click.entity';
import { ClickExport, ClickExportController } from './click-export';
import { ClickSeries } from './click-series';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';

@Module({
  imports: [TypeOrmModule.forFeature([Click]), LinksModule, ClicksModule, CsvExportModule],
  controllers: [StatsController, ClickExportController],
  providers: [StatsService, ClickExport, ClickSeries],
  exports: [StatsService, ClickSeries],
})
export class StatsModule {}
