import type { IncomingHttpHeaders } from 'node:http';
import type { RedirectOutcome } from '../metrics/metrics.service';
import type { Page } from '../visitor-pages/page';
import type { Translator } from '../visitor-pages/translator';

/** A visitor's request as the visit pipeline reads it, whichever server took it. */
export interface VisitRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The client's address, proxies resolved as trusted. */
  address: string;
  /** The visitor's own query string, merged into the destination: from the address, or a form's hidden field. */
  query: string;
  /** The page the visitor came from (only its host is ever recorded): `Referer`, or a form's hidden field. */
  referrer: string;
  /** The fields of a posted form (the password, the consent token); empty on a GET. */
  form: Readonly<Record<string, unknown>>;
}

/**
 * What a visitor gets, decided by the visit pipeline and written by {@link OutcomeWriter}. `metric` is the visit's
 * outcome in the redirect metrics, for the answers to a visit (not for the preview or the root page).
 */
export type VisitOutcome =
  | { kind: 'redirect'; status: number; location: string; metric?: RedirectOutcome }
  /** 410 with the expired page, made once per language. */
  | { kind: 'expired' }
  /** 404 with the page that says no link is here. */
  | { kind: 'not-found'; metric?: RedirectOutcome }
  /** 414: the visitor's query is longer than a destination may grow by. */
  | { kind: 'too-large' }
  | {
      kind: 'page';
      status: number;
      view: (t: Translator) => Page;
      headers?: Readonly<Record<string, string>>;
      metric?: RedirectOutcome;
    };

export function redirectTo(location: string, status: number, metric?: RedirectOutcome): VisitOutcome {
  return { kind: 'redirect', status, location, metric };
}
