import { ValidationPipe } from '@nestjs/common';
import { ValidationFailedException } from './exceptions';
import { flattenValidationErrors } from './validation';

/** Global validation: DTO classes only, unknown fields dropped, explicit transforms, every failure a named 422. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
  });
}
