import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { DomainsModule } from '../../domains/domains.module';
import { LinksModule } from '../../links/links.module';
import { StatsModule } from '../../stats/stats.module';
import { VisitorLimitsModule } from '../limits/visitor-limits.module';
import { StatsPageService } from './stats-page.service';

/** A link's public stats page: who may see it, and what it shows. */
@Module({
  imports: [AuthModule, DomainsModule, LinksModule, StatsModule, VisitorLimitsModule],
  providers: [StatsPageService],
  exports: [StatsPageService],
})
export class StatsPageModule {}
