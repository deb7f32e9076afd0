import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { plainToInstance, type ClassConstructor, type ClassTransformOptions } from 'class-transformer';
import { validate, type ValidatorOptions } from 'class-validator';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ValidationFailedException, type FieldErrors } from './exceptions';
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

const TRANSFORM_OPTIONS: ClassTransformOptions = { enableImplicitConversion: false };
// Nest's pipe turns class-validator's `forbidUnknownValues` off unless told; `validateEach` does as the pipe does.
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  stopAtFirstError: true,
  forbidUnknownValues: false,
};

/** Global validation: DTO classes only, unknown fields dropped, explicit transforms, every failure a named 422. */
export function createValidationPipe(): ValidationPipe {
  return new ExplicitValidationPipe({
    ...VALIDATOR_OPTIONS,
    transform: true,
    transformOptions: TRANSFORM_OPTIONS,
    exceptionFactory: (errors) => new ValidationFailedException(flattenValidationErrors(errors)),
  });
}

/** How long a list's validation may hold the event loop before it lets other requests through. */
const SLICE_MS = 2;

/**
 * Each item of a list (`field`) converted and validated as the global pipe does a body, every refusal named with
 * the item's index (`links.7.url`), or with what `itemKey` calls it (an imported file's line: `line.9.url`).
 * Validation is synchronous, and 1,000 links with their targets take a second: the event loop is let go every few
 * milliseconds, so that visits meanwhile are not held up.
 */
export async function validateEach<T extends object>(
  metatype: ClassConstructor<T>,
  items: readonly object[],
  field: string,
  itemKey: (index: number) => string | number = (index) => index,
): Promise<T[]> {
  const checked = await validateItems(metatype, items);
  const errors: FieldErrors = {};
  for (const [index, item] of checked.entries()) {
    for (const [name, reasons] of Object.entries(item.errors))
      errors[`${field}.${itemKey(index)}.${name}`] = reasons;
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
  return checked.map((item) => item.value);
}

/** Each item converted and validated as the global pipe does a body, with its own refusals (none when valid). */
export async function validateItems<T extends object>(
  metatype: ClassConstructor<T>,
  items: readonly object[],
): Promise<{ value: T; errors: FieldErrors }[]> {
  const checked: { value: T; errors: FieldErrors }[] = [];
  let sliceStart = performance.now();
  for (const item of items) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    const value = plainToInstance(metatype, item, TRANSFORM_OPTIONS);
    checked.push({ value, errors: flattenValidationErrors(await validate(value, VALIDATOR_OPTIONS), '') });
  }
  return checked;
}
