import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Scope } from './scopes';

export const REQUIRED_SCOPE = 'requiredScope';

/** The OpenAPI extension that names an operation's scope; the document also says it in the description. */
export const SCOPE_EXTENSION = 'x-required-scope';

/**
 * The scope a route needs, declared beside its verb and read by the global guard, which refuses a route that
 * declares none (unless it is `@Public()`): a new route cannot be reached by a key before it says what it needs.
 */
export const RequiresScope = (scope: Scope) =>
  applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension(SCOPE_EXTENSION, scope));

export const ANY_SCOPE = 'anyScope';

/**
 * A route that every live key may use whatever its scopes: the exchange of a key for a dashboard session, which
 * carries exactly the key's scopes. Said in the document as the scope `any`.
 */
export const AnyScope = () =>
  applyDecorators(SetMetadata(ANY_SCOPE, true), ApiExtension(SCOPE_EXTENSION, 'any'));
