import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClicksModule } from '../clicks/clicks.module';
import { DomainsModule } from '../domains/domains.module';
import { LinksModule } from '../links/links.module';
import { StatsModule } from '../stats/stats.module';
import { TargetingModule } from '../targeting/targeting.module';
import { AttemptLimiter } from './attempt-limiter';
import { LeanRedirect } from './lean-redirect';
import { Pages } from './pages';
import { RedirectController } from './redirect.controller';
import { StatsPageService } from './stats-page.service';
import { VisitorRateLimit, VisitorRateLimitGuard } from './visitor-rate-limit.guard';
import { VisitsService } from './visits.service';

/** The public visitor routes. Imported last: its `/:alias` routes come after every other route. */
@Module({
  imports: [AuthModule, ClicksModule, DomainsModule, LinksModule, StatsModule, TargetingModule],
  controllers: [RedirectController],
  providers: [
    VisitsService,
    StatsPageService,
    Pages,
    AttemptLimiter,
    VisitorRateLimitGuard,
    VisitorRateLimit,
    LeanRedirect,
  ],
})
export class RedirectModule {}
