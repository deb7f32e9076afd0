import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaRepository } from '../database/quota.repository';
import { Transactions } from '../database/transactions';
import { LinkTag } from './link-tag.entity';
import { Tag } from './tag.entity';
import { TagsController } from './tags.controller';
import { TagsRepository } from './tags.repository';
import { TagsService } from './tags.service';

@Module({
  imports: [TypeOrmModule.forFeature([Tag, LinkTag])],
  controllers: [TagsController],
  providers: [TagsService, TagsRepository, QuotaRepository, Transactions],
  exports: [TagsService],
})
export class TagsModule {}
