import type { IncomingHttpHeaders } from 'node:http';
import type { RedirectOutcome } from '../metrics/metrics.service';
import type { SocialPreview } from '../links/visit-link.repository';
import type { PixelResponse } from '../pixels/pixel.mapper';

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

// The facts the password and consent forms and the interstitials carry are the pages' own inputs, named once there.
import type { CarriedForm, LeadsTo, PreviewFacts } from './pages/views';

export type { CarriedForm, LeadsTo, PreviewFacts };

/**
 * What a visitor gets, decided by the visit pipeline: plain data, a kind and its facts. {@link OutcomeWriter} picks
 * the view, the status and the headers of each kind. `metric` is the visit's outcome in the redirect metrics where
 * the kind alone does not say it.
 */
export type VisitOutcome =
  | { kind: 'redirect'; status: number; location: string; metric?: RedirectOutcome }
  /** The expired answer, 410. */
  | { kind: 'expired' }
  /** No link here, 404. */
  | { kind: 'not-found'; metric?: RedirectOutcome }
  /** The visitor's query is longer than a destination may grow by, 414. */
  | { kind: 'too-large' }
  /** The password form: first shown (no error), or shown again after a wrong or missing password. */
  | {
      kind: 'password-form';
      form: CarriedForm;
      leads: LeadsTo;
      error: 'passwordWrong' | 'passwordFirst' | null;
    }
  /** The sensitive content warning; `token` proves the password was given (empty for a link without one). */
  | { kind: 'consent'; form: CarriedForm; token: string; leads: LeadsTo }
  /** A counted visit of a link with pixels: the page that loads them and forwards to the destination. */
  | { kind: 'pixels'; pixels: PixelResponse[]; destination: string }
  | { kind: 'preview'; link: PreviewFacts }
  /** A social network's crawler at a link with a social preview: the page of its Open Graph tags. */
  | { kind: 'social-preview'; preview: SocialPreview; destination: string }
  /** A domain's root without an index page: `name` is the service's, `own` whether the domain is too. */
  | { kind: 'root'; name: string; domain: string; own: boolean }
  /** Too many password attempts: the wait before the next, in milliseconds. */
  | { kind: 'too-many-attempts'; waitMs: number };

export function redirectTo(location: string, status: number, metric?: RedirectOutcome): VisitOutcome {
  return { kind: 'redirect', status, location, metric };
}
