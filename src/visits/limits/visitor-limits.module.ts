import { Module } from '@nestjs/common';
import { LimitsModule } from '../../limits/limits.module';
import { VisitorPagesModule } from '../pages/visitor-pages.module';
import { AttemptLimiter } from './attempt-limiter';
import { VisitorRateLimit, VisitorRateLimitGuard } from './visitor-rate-limit.guard';

/** The visitor routes' limits: visits per address, and password attempts per address and link. */
@Module({
  imports: [LimitsModule, VisitorPagesModule],
  providers: [AttemptLimiter, VisitorRateLimit, VisitorRateLimitGuard],
  exports: [AttemptLimiter, VisitorRateLimit, VisitorRateLimitGuard],
})
export class VisitorLimitsModule {}
