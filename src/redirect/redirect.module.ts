import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClicksModule } from '../clicks/clicks.module';
import { DomainsModule } from '../domains/domains.module';
import { LimitsModule } from '../limits/limits.module';
import { LinksModule } from '../links/links.module';
import { QrModule } from '../qr/qr.module';
import { StatsModule } from '../stats/stats.module';
import { TargetingModule } from '../targeting/targeting.module';
import { AttemptLimiter } from './attempt-limiter';
import { LeanRedirect } from './lean-redirect';
import { Pages } from './pages';
import { RedirectController } from './redirect.controller';
import { ErrorPages } from '../common/error-pages';
import { StatsPageService } from './stats-page.service';
import { VisitorErrorPages } from './visitor-error-pages';
import { VisitorRateLimit, VisitorRateLimitGuard } from './visitor-rate-limit.guard';
import { VisitsService } from './visits.service';

/** The public visitor routes. Imported last: its `/:alias` routes come after every other route. */
@Module({
  imports: [
    AuthModule,
    ClicksModule,
    DomainsModule,
    LimitsModule,
    LinksModule,
    QrModule,
    StatsModule,
    TargetingModule,
  ],
  controllers: [RedirectController],
  providers: [
    VisitsService,
    StatsPageService,
    Pages,
    AttemptLimiter,
    VisitorRateLimitGuard,
    VisitorRateLimit,
    LeanRedirect,
    // The pages the global error filter shows browsers for the visitor routes' refusals.
    { provide: ErrorPages, useClass: VisitorErrorPages },
  ],
  exports: [ErrorPages],
})
export class RedirectModule {}
