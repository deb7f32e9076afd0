import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MetricsService } from '../metrics/metrics.service';
import { Pages } from '../visitor-pages/pages';
import { views } from '../visitor-pages/views';
import type { VisitOutcome } from './visit';

/**
 * Turns an outcome into bytes on a response: the one place that writes a visit's answer, for the routes and for
 * the redirect's fast path alike, and counts its redirect metric.
 */
@Injectable()
export class OutcomeWriter {
  constructor(
    private readonly pages: Pages,
    private readonly metrics: MetricsService,
  ) {}

  write(request: IncomingMessage, response: ServerResponse, outcome: VisitOutcome): void {
    // An expired link is answered to a visit alone; the other outcomes say whether they answer one.
    const metric =
      outcome.kind === 'expired' ? 'expired' : outcome.kind === 'too-large' ? undefined : outcome.metric;
    if (metric !== undefined) this.metrics.redirect(metric);
    switch (outcome.kind) {
      case 'redirect':
        response.writeHead(outcome.status, {
          Location: outcome.location,
          'Cache-Control': 'private, no-store',
          'Content-Length': 0,
        });
        response.end();
        return;
      case 'expired':
        this.pages.writeComposed(
          request,
          response,
          410,
          this.pages.expiredPage(request.headers['accept-language']),
        );
        return;
      case 'not-found':
        this.pages.write(request, response, 404, (t) => views.notFound(t));
        return;
      case 'too-large':
        this.pages.write(request, response, 414, (t) => views.queryTooLong(t));
        return;
      case 'page':
        this.pages.write(request, response, outcome.status, outcome.view, outcome.headers);
        return;
    }
  }
}
