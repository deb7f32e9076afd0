import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator';

@ApiTags('health')
@Public()
@SkipThrottle()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  /** Liveness: the process answers. */
  @ApiOperation({ operationId: 'checkLiveness', summary: 'Liveness: the process answers' })
  @Get()
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /** Readiness: the database answers within a second and a half. */
  @ApiOperation({ operationId: 'checkReadiness', summary: 'Readiness: the database answers' })
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.database.pingCheck('database', { timeout: 1500 })]);
  }
}
