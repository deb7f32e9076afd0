import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClicksModule } from '../clicks/clicks.module';
import { LinksModule } from '../links/links.module';
import { Click } from './click.entity';
import { ClickSeries } from './click-series';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';

@Module({
  imports: [TypeOrmModule.forFeature([Click]), LinksModule, ClicksModule],
  controllers: [StatsController],
  providers: [StatsService, ClickSeries],
  exports: [StatsService, ClickSeries],
})
export class StatsModule {}
