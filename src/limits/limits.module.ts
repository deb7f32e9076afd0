import { Module } from '@nestjs/common';
import { limitsConfig, type LimitsConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { LimitsRedis } from './limits-redis';
import { LimitsStorage } from './limits-storage';
import { connectRedis } from './redis-connection';

/**
 * Where every limit is counted: in Redis when REDIS_URL is set, shared by the instances, else in each instance's
 * memory. The throttler's module takes LimitsStorage as its storage, so that whatever injects the throttler's storage
 * counts there.
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
  ],
  exports: [LimitsStorage],
})
export class LimitsModule {}
