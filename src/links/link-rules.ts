import type { FieldErrors } from '../common/exceptions';
import { canonicalTargetKey, TargetsType } from '../targeting/allowed-values';
import type { TargetDto } from './dto/target.dto';
import type { Target } from './link.entity';

/*
 * The rules of a link that span fields, which field decorators cannot state: pure, so that create, update, bulk
 * and import apply the same, and unit tests state them without a database.
 */

/** Adds a field's error to those of a request, after any it already has. */
export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** Whether a field was sent at all: class fields of absent properties stay undefined. */
export function sent<T>(value: T | undefined): value is T {
  return value !== undefined;
}

/** An active period needs both ends, the end after the start. */
export function checkPeriod(start: Date | null, end: Date | null, errors: FieldErrors): void {
  if (start !== null && end === null) {
    addError(
      errors,
      'active_period_end_at',
      'The active period end at field is required when active period start at is present.',
    );
  } else if (start === null && end !== null) {
    addError(
      errors,
      'active_period_start_at',
      'The active period start at field is required when active period end at is present.',
    );
  } else if (start !== null && end !== null && start >= end) {
    addError(
      errors,
      'active_period_end_at',
      'The active period end at must be a date after active period start at.',
    );
  }
}

/** The targeting to store: keys in their canonical form, checked against the allowed values of the type. */
export function checkTargeting(
  type: TargetsType | null,
  targets: TargetDto[] | null,
  errors: FieldErrors,
): { type: TargetsType | null; targets: Target[] | null } {
  const list = targets ?? [];
  if (type === null) {
    if (list.length > 0)
      addError(errors, 'targets_type', 'The targets type field is required when targets is present.');
    return { type: null, targets: null };
  }
  if (list.length === 0) {
    addError(errors, 'targets', 'The targets field is required when targets type is present.');
    return { type, targets: null };
  }
  const canonical = list.map((target, index): Target => {
    // A weight of 1 is not kept: a rotation without weights reads as it always did.
    if (type === TargetsType.Rotations) {
      const weight = target.weight ?? 1;
      return weight === 1 ? { key: '', value: target.value } : { key: '', value: target.value, weight };
    }
    const key = target.key === undefined || target.key === null ? null : canonicalTargetKey(type, target.key);
    if (target.key === undefined || target.key === null) {
      addError(errors, `targets.${index}.key`, 'The key field is required.');
    } else if (key === null) {
      addError(errors, `targets.${index}.key`, `The selected key is invalid for ${type}.`);
    }
    return { key: key ?? '', value: target.value };
  });
  return { type, targets: canonical };
}
