import { Module } from '@nestjs/common';
import { limitsConfig, type LimitsConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { LeasedBudgets } from './leased-budgets';
import { LimitsRedis } from './limits-redis';
import { LimitsStorage } from './limits-storage';
import { connectRedis } from './redis-connection';

/**
 * Where every limit is counted: in Redis when REDIS_URL is set, shared by the instances, else in each instance's
 * memory. The throttler's module takes LimitsStorage as its storage, so that whatever injects the throttler's storage
 * counts there; the visitor limit takes its hits through LeasedBudgets.
 */
@Module({
  providers: [
    {
      provide: LimitsRedis,
      inject: [limitsConfig.KEY, MetricsService],
      useFactory: ({ redisUrl, ...config }: LimitsConfig, metrics: MetricsService) =>
        new LimitsRedis(
          redisUrl === undefined ? null : connectRedis({ ...config, redisUrl }),
          redisUrl ?? '',
          metrics.registry,
        ),
    },
    LimitsStorage,
    LeasedBudgets,
  ],
  exports: [LimitsStorage, LeasedBudgets],
})
export class LimitsModule {}
