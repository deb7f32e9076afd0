import { Controller, Get, Header, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Public } from '../auth/public.decorator';
import { ResourceNotFoundException } from '../common/exceptions';
import { MetricsAccess } from './metrics-access';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics` on the public port: only when `METRICS_TOKEN` is set, behind it; otherwise a 404, as for any
 * unknown path. The metrics port serves them either way (see MetricsServer).
 */
@ApiExcludeController()
@Public()
@SkipThrottle()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly access: MetricsAccess,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (!this.access.tokenSet) throw new ResourceNotFoundException();
    if (!this.access.allows(request.headers.authorization)) throw new UnauthorizedException();
    const text = await this.metrics.text();
    response.setHeader('Content-Type', this.metrics.contentType);
    response.end(text);
  }
}
