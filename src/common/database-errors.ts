import { QueryFailedError } from 'typeorm';

/** True when `error` is PostgreSQL's unique violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === constraint;
}
