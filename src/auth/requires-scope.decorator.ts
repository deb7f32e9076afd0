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
