import { Global, Module } from '@nestjs/common';
import { ConnectionPool } from '../database/connection-pool';
import { MetricsAccess } from './metrics-access';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics-server';
import { MetricsService } from './metrics.service';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsAccess, MetricsServer, ConnectionPool],
  exports: [MetricsService],
})
export class MetricsModule {}
