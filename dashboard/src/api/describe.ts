import type { Messages } from '../i18n/en';
import { isApiError } from './errors';

/** A screen's own sentence for some failures (a refusal it can explain better); null for the usual one. */
export type OwnWords = (error: unknown) => string | null;

/** A sentence for the reader about a failed request, in their language; the service's own words where they add to it. */
export function describeError(t: Messages, error: unknown, own?: OwnWords): string {
  const special = own?.(error) ?? null;
  if (special !== null) return special;
  if (!isApiError(error)) return t.errors.unknown;
  const { status, message } = error;
  if (status === 0) return t.errors.network;
  if (status === 401) return t.errors.unauthorized;
  if (status === 403) return `${t.errors.forbidden} ${message}`;
  if (status === 404) return t.errors.notFound;
  if (status === 409) return `${t.errors.conflict} ${message}`;
  if (status === 413) return t.errors.tooLarge;
  if (status === 400 || status === 415) return `${t.errors.badRequest} ${message}`;
  if (status === 422) return t.errors.validation;
  if (status === 429)
    return error.retryAfter === null ? t.errors.rateLimited : t.errors.retryIn(error.retryAfter);
  if (status === 503) return t.errors.unavailable;
  return t.errors.server;
}
