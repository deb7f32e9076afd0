import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaRepository } from '../database/quota.repository';
import { Transactions } from '../database/transactions';
import { Space } from './space.entity';
import { SpacesController } from './spaces.controller';
import { SpacesRepository } from './spaces.repository';
import { SpacesService } from './spaces.service';

@Module({
  imports: [TypeOrmModule.forFeature([Space])],
  controllers: [SpacesController],
  providers: [SpacesService, SpacesRepository, QuotaRepository, Transactions],
  exports: [SpacesService],
})
export class SpacesModule {}
