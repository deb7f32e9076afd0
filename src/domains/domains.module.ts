import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaRepository } from '../database/quota.repository';
import { Transactions } from '../database/transactions';
import { Domain } from './domain.entity';
import { DomainsController } from './domains.controller';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';

@Module({
  imports: [TypeOrmModule.forFeature([Domain])],
  controllers: [DomainsController],
  providers: [DomainsService, DomainsRepository, QuotaRepository, Transactions],
  exports: [DomainsService],
})
export class DomainsModule implements OnApplicationBootstrap {
  constructor(private readonly domains: DomainsService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.domains.ensureDefaultDomain();
  }
}
