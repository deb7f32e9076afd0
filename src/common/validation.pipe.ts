import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { ValidationFailedException } from './exceptions';
import { flattenValidationErrors } from './validation';

/**
 * Nest's pipe converts single path and query parameters with `Number()`, which reads `0x38`, `5.6e1` and ` 56`
 * as 56 before the id pipe sees them. Every conversion here is explicit (the form decorators, the id pipe).
 */
class ExplicitValidationPipe extends ValidationPipe {
  protected override transformPrimitive(value: unknown, _metadata: ArgumentMetadata): unknown {
    return value;
  }
}

/** Global validation: DTO classes only, unknown fields dropped, explicit transforms, every failure a named 422. */
export function createValidationPipe(): ValidationPipe {
  return new ExplicitValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
  });
}
