import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LinksModule } from '../links/links.module';
import { ClickRecorder } from './click-recorder';
import { Click } from './click.entity';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';

@Module({
  imports: [TypeOrmModule.forFeature([Click]), LinksModule],
  controllers: [StatsController],
  providers: [StatsService, ClickRecorder],
  exports: [StatsService, ClickRecorder],
})
export class StatsModule {}
