import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Domain } from './domain.entity';
import { DomainsController } from './domains.controller';
import { DomainsService } from './domains.service';

@Module({
  imports: [TypeOrmModule.forFeature([Domain])],
  controllers: [DomainsController],
  providers: [DomainsService],
  exports: [DomainsService],
})
export class DomainsModule implements OnApplicationBootstrap {
  constructor(private readonly domains: DomainsService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.domains.ensureDefaultDomain();
  }
}
