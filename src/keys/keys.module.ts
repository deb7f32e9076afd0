import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../auth/api-key.entity';
import { AuthModule } from '../auth/auth.module';
import { QuotaRepository } from '../database/quota.repository';
import { Transactions } from '../database/transactions';
import { SpacesModule } from '../spaces/spaces.module';
import { KeysController } from './keys.controller';
import { KeysRepository } from './keys.repository';
import { KeysService } from './keys.service';

/** API keys managed over the API (contract §9): scoped, restricted to spaces, never beyond their maker. */
@Module({
  imports: [AuthModule, SpacesModule, TypeOrmModule.forFeature([ApiKey])],
  controllers: [KeysController],
  providers: [KeysService, KeysRepository, QuotaRepository, Transactions],
})
export class KeysModule {}
