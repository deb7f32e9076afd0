import { HttpException, HttpStatus } from '@nestjs/common';
import { ERROR_MESSAGES } from './envelope';

/** Field errors, keyed by the field's name as the client sent it (`name`, `targets.0.key`). */
export type FieldErrors = Record<string, string[]>;

/** A 422 with the contract's `{"message": {"field": ["reason"]}}` body. */
export class ValidationFailedException extends HttpException {
  constructor(readonly fields: FieldErrors) {
    super({ fields }, HttpStatus.UNPROCESSABLE_ENTITY);
  }

  static of(field: string, reason: string): ValidationFailedException {
    return new ValidationFailedException({ [field]: [reason] });
  }
}

/**
 * Where a visitor was refused, as the page a browser is shown instead of the JSON body says it: the short link's
 * domain (the page's way out) and, for a page with a form, where the form posts.
 */
export interface VisitorContext {
  domain: string;
  action?: string;
}

/**
 * A refusal in the contract's words: its message is the JSON body's as it is, with the headers it needs
 * (`Retry-After`). One met on a visitor's page says where ({@link RefusalException.seenBy}), so that the filter
 * shows a browser that page's answer instead (see `ErrorPages`).
 */
export abstract class RefusalException extends HttpException {
  readonly headers: Record<string, string> = {};
  visitor: VisitorContext | null = null;

  /** The refusal as a visitor's page meets it. */
  seenBy(visitor: VisitorContext): this {
    this.visitor = visitor;
    return this;
  }
}

/** Unknown ids and other accounts' ids alike; for visitors, an address that names no link they may see. */
export class ResourceNotFoundException extends RefusalException {
  constructor() {
    super(ERROR_MESSAGES[HttpStatus.NOT_FOUND]!, HttpStatus.NOT_FOUND);
  }
}

/** What only its owner may see (a link's private statistics). */
export class OwnerOnlyException extends RefusalException {
  constructor() {
    super('Forbidden.', HttpStatus.FORBIDDEN);
  }
}

/** A password is needed: none was given (401), or a wrong one (403). */
export class PasswordRequiredException extends RefusalException {
  constructor(readonly wrong: boolean) {
    super('Password required.', wrong ? HttpStatus.FORBIDDEN : HttpStatus.UNAUTHORIZED);
  }
}

/** Too many password attempts: `Retry-After` says when the next one counts. */
export class TooManyAttemptsException extends RefusalException {
  readonly retryAfterSeconds: number;

  constructor(waitMs: number) {
    super(ERROR_MESSAGES[HttpStatus.TOO_MANY_REQUESTS]!, HttpStatus.TOO_MANY_REQUESTS);
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    this.headers['Retry-After'] = String(this.retryAfterSeconds);
  }
}

/** The API key lacks the scope the route needs (or the restriction the change needs). */
export class UnauthorizedActionException extends RefusalException {
  constructor() {
    super('This action is unauthorized.', HttpStatus.FORBIDDEN);
  }
}
