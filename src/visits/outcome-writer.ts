import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { trusted } from '../common/html';
import { MetricsService, type RedirectOutcome } from '../metrics/metrics.service';
import type { Page } from './pages/page';
import { Pages, retryAfter } from './pages/pages';
import { pixelMarkup } from './pages/pixel-markup';
import type { Translator } from './pages/translator';
import { views } from './pages/views';
import type { VisitOutcome } from './visit';

/** A page answer: its status, its view, and headers beyond the page's own. */
interface PageAnswer {
  status: number;
  view: (t: Translator) => Page;
  headers?: Readonly<Record<string, string>>;
}

/**
 * Turns an outcome into bytes on a response: the one place that writes a visit's answer, for the routes and for
 * the redirect's fast path alike. It picks each kind's view, status and headers, and counts its redirect metric.
 */
@Injectable()
export class OutcomeWriter {
  constructor(
    private readonly pages: Pages,
    private readonly metrics: MetricsService,
  ) {}

  write(request: IncomingMessage, response: ServerResponse, outcome: VisitOutcome): void {
    const metric = metricOf(outcome);
    if (metric !== undefined) this.metrics.redirect(metric);
    if (outcome.kind === 'redirect') {
      response.writeHead(outcome.status, {
        Location: outcome.location,
        'Cache-Control': 'private, no-store',
        'Content-Length': 0,
      });
      response.end();
    } else if (outcome.kind === 'expired') {
      const page = this.pages.expiredPage(request.headers['accept-language']);
      this.pages.writeComposed(request, response, 410, page);
    } else {
      const { status, view, headers } = pageOf(outcome);
      this.pages.write(request, response, status, view, headers);
    }
  }
}

/** The visit's outcome in the redirect metrics: none for the answers that are not a visit's (preview, root). */
function metricOf(outcome: VisitOutcome): RedirectOutcome | undefined {
  switch (outcome.kind) {
    case 'redirect':
    case 'not-found':
      return outcome.metric;
    case 'expired':
      return 'expired';
    case 'password-form':
      // The form shown again after a wrong password is the same visit, already counted as one.
      return outcome.error === null ? 'password' : undefined;
    case 'consent':
      return 'consent';
    case 'pixels':
      return 'redirected';
    case 'social-preview':
      return 'bot';
    case 'too-large':
    case 'preview':
    case 'root':
    case 'too-many-attempts':
      return undefined;
  }
}

/** The page of each outcome that is one. */
function pageOf(outcome: Exclude<VisitOutcome, { kind: 'redirect' | 'expired' }>): PageAnswer {
  switch (outcome.kind) {
    case 'not-found':
      return { status: 404, view: (t) => views.notFound(t) };
    case 'too-large':
      return { status: 414, view: (t) => views.queryTooLong(t) };
    case 'password-form':
      return { status: outcome.error === null ? 200 : 403, view: (t) => views.password(t, outcome) };
    case 'consent':
      return { status: 200, view: (t) => views.consent(t, outcome) };
    case 'pixels': {
      const { html, allow } = pixelMarkup(outcome.pixels);
      const input = { destination: outcome.destination, pixels: trusted(html), allow };
      return { status: 200, view: (t) => views.pixels(t, input) };
    }
    case 'preview':
      return { status: 200, view: (t) => views.preview(t, outcome.link) };
    case 'social-preview':
      return { status: 200, view: (t) => views.socialPreview(t, outcome) };
    case 'root':
      return { status: 200, view: (t) => views.root(t, outcome) };
    case 'too-many-attempts': {
      const { header, waitMs } = retryAfter(outcome.waitMs);
      return { status: 429, view: (t) => views.tooManyAttempts(t, waitMs), headers: header };
    }
  }
}
