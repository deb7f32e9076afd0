import { Controller, Get, Header, Inject, Req, Res, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/api-key';
import { Public } from '../auth/public.decorator';
import { metricsConfig, type MetricsConfig } from '../config/app-config';
import { MetricsService } from './metrics.service';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `GET /metrics` for Prometheus: open, or behind `Authorization: Bearer <METRICS_TOKEN>` when that is set. */
@ApiExcludeController()
@Public()
@SkipThrottle()
@Controller('metrics')
export class MetricsController {
  private readonly token: Buffer | null;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(metricsConfig.KEY) config: MetricsConfig,
  ) {
    this.token = config.metricsToken === undefined ? null : digest(config.metricsToken);
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (this.token !== null) {
      const given = bearerToken(request.headers.authorization);
      if (given === null || !timingSafeEqual(digest(given), this.token)) throw new UnauthorizedException();
    }
    const text = await this.metrics.text();
    response.setHeader('Content-Type', this.metrics.contentType);
    response.end(text);
  }
}
