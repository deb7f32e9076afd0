import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ErrorPages, type ErrorPage } from '../../common/error-pages';
import {
  OwnerOnlyException,
  PasswordRequiredException,
  RefusalException,
  ResourceNotFoundException,
  TooManyAttemptsException,
  type VisitorContext,
} from '../../common/exceptions';
import type { Page } from './page';
import { Pages } from './pages';
import type { Translator } from './translator';
import { views } from './views';

/** Whether a visitor's request takes the page (a browser) rather than JSON (`Accept: application/json`). */
export function wantsJson(request: Pick<Request, 'accepts'>): boolean {
  return request.accepts(['html', 'json']) === 'json';
}

/**
 * Whether a request names HTML in its `Accept` and prefers it to JSON: a browser opening an address. An image tag,
 * `curl` (which sends a bare wildcard) or a script gets what an API client gets.
 */
export function asksForHtml(request: Pick<Request, 'accepts' | 'headers'>): boolean {
  return /(?:^|,)\s*text\/html\s*(?:[;,]|$)/i.test(request.headers.accept ?? '') && !wantsJson(request);
}

/**
 * The refusals of the stats page as a browser sees them: the page of each, in the visitor's language, with the
 * status it has always had (the password form is a 200 until a wrong password makes it a 403). The global filter
 * asks here first; a refusal met elsewhere (the API's), or a request for JSON, is left to its envelope.
 */
@Injectable()
export class VisitorErrorPages extends ErrorPages {
  constructor(private readonly pages: Pages) {
    super();
  }

  pageFor(exception: unknown, request: Request): ErrorPage | null {
    if (!(exception instanceof RefusalException) || exception.visitor === null || wantsJson(request)) {
      return null;
    }
    const t = this.pages.translator(request);
    const answer = this.answer(t, exception, exception.visitor);
    if (answer === null) return null;
    const { headers, body } = this.pages.compose(t, answer.page);
    return { status: answer.status, headers: { ...headers, ...exception.headers }, body };
  }

  private answer(
    t: Translator,
    exception: RefusalException,
    visitor: VisitorContext,
  ): { status: number; page: Page } | null {
    if (exception instanceof ResourceNotFoundException) return { status: 404, page: views.notFound(t) };
    if (exception instanceof OwnerOnlyException) {
      return { status: 403, page: views.privateStats(t, { domain: visitor.domain }) };
    }
    if (exception instanceof PasswordRequiredException) {
      const page = views.statsPassword(t, {
        action: visitor.action ?? '',
        domain: visitor.domain,
        wrong: exception.wrong,
      });
      return { status: exception.wrong ? 403 : 200, page };
    }
    if (exception instanceof TooManyAttemptsException) {
      return { status: 429, page: views.tooManyAttempts(t, exception.retryAfterSeconds * 1000) };
    }
    return null;
  }
}
