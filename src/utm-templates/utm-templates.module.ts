import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaRepository } from '../database/quota.repository';
import { Transactions } from '../database/transactions';
import { UtmTemplate } from './utm-template.entity';
import { UtmTemplatesController } from './utm-templates.controller';
import { UtmTemplatesRepository } from './utm-templates.repository';
import { UtmTemplatesService } from './utm-templates.service';

/** The UTM templates a workspace saves for its UTM builder: link metadata, under the links' scopes. */
@Module({
  imports: [TypeOrmModule.forFeature([UtmTemplate])],
  controllers: [UtmTemplatesController],
  providers: [UtmTemplatesService, UtmTemplatesRepository, QuotaRepository, Transactions],
})
export class UtmTemplatesModule {}
