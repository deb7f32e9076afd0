import { Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../auth/api-key';
import { metricsConfig, type MetricsConfig } from '../config/app-config';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Who may read the metrics: with `METRICS_TOKEN`, the bearer of that token only; without it, whoever reaches them. */
@Injectable()
export class MetricsAccess {
  private readonly token: Buffer | null;

  constructor(@Inject(metricsConfig.KEY) config: MetricsConfig) {
    this.token = config.metricsToken === undefined ? null : digest(config.metricsToken);
  }

  /** Whether a token is set: without one, the public port does not serve the metrics at all. */
  get tokenSet(): boolean {
    return this.token !== null;
  }

  /** Whether a request with this `Authorization` header may read the metrics. */
  allows(authorization: string | undefined): boolean {
    if (this.token === null) return true;
    const given = bearerToken(authorization);
    return given !== null && timingSafeEqual(digest(given), this.token);
  }
}
