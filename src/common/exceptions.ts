import { HttpException, HttpStatus } from '@nestjs/common';

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

/** Unknown ids and other accounts' ids alike. */
export class ResourceNotFoundException extends HttpException {
  constructor() {
    super('Resource not found.', HttpStatus.NOT_FOUND);
  }
}
