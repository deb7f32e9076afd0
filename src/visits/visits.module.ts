import { Module } from '@nestjs/common';
import { ClicksModule } from '../clicks/clicks.module';
import { DomainsModule } from '../domains/domains.module';
import { LinksModule } from '../links/links.module';
import { QrModule } from '../qr/qr.module';
import { StatsPageModule } from './stats-page/stats-page.module';
import { TargetingModule } from '../targeting/targeting.module';
import { VisitorLimitsModule } from './limits/visitor-limits.module';
import { VisitorPagesModule } from './pages/visitor-pages.module';
import { LeanRedirect } from './lean-redirect';
import { OutcomeWriter } from './outcome-writer';
import { VisitPipeline } from './visit-pipeline';
import { VisitorController } from './visitor.controller';

/** The visit pipeline and the public visitor routes. Imported last: its `/:alias` routes come after every other. */
@Module({
  imports: [
    ClicksModule,
    DomainsModule,
    LinksModule,
    QrModule,
    StatsPageModule,
    TargetingModule,
    VisitorLimitsModule,
    VisitorPagesModule,
  ],
  controllers: [VisitorController],
  providers: [VisitPipeline, OutcomeWriter, LeanRedirect],
  exports: [VisitorPagesModule],
})
export class VisitsModule {}
