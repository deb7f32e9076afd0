/** The contract's error bodies, as the API answers them: what every spec compares responses with. */

export const NOT_FOUND = { message: 'Resource not found.', status: 404 };

export const UNAUTHENTICATED = { message: 'Unauthenticated.', status: 401 };

/** A 422 naming one field and its reason. */
export function invalid(field: string, reason: string) {
  return { message: { [field]: [reason] }, status: 422 };
}

/** A 422 naming several fields, each with its reason. */
export function invalidFields(fields: Record<string, string>) {
  return {
    message: Object.fromEntries(Object.entries(fields).map(([field, reason]) => [field, [reason]])),
    status: 422,
  };
}
