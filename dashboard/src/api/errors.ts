/** Messages per field, as a 422 names them: `url`, `targets.0.key`, `links.3.alias`. */
export type FieldErrors = Record<string, string[]>;

/**
 * `errors` without the messages of `fields` and of what they hold (`targets` takes `targets.0.key` with it): a
 * message about a value that has since changed would be read as one about the new value.
 */
export function withoutFields(errors: FieldErrors, fields: readonly string[]): FieldErrors {
  const stale = (name: string) => fields.some((field) => name === field || name.startsWith(`${field}.`));
  if (!Object.keys(errors).some(stale)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([name]) => !stale(name)));
}

/** The messages of `field` and of what it holds (`tags` takes `tags.3` with it), for the one control that edits it. */
export function errorsUnder(errors: FieldErrors, field: string): string[] {
  return Object.entries(errors)
    .filter(([name]) => name === field || name.startsWith(`${field}.`))
    .flatMap(([, messages]) => messages);
}

/** An answer that was not a success, or a request that got no answer at all (`status` 0). */
export class ApiError extends Error {
  /** The seconds a 429's Retry-After asks to wait, when it says. */
  retryAfter: number | null = null;

  constructor(
    readonly status: number,
    message: string,
    readonly fields: FieldErrors = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function fieldErrorsOf(value: unknown): FieldErrors | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields: FieldErrors = {};
  for (const [name, messages] of Object.entries(value)) {
    if (isStringList(messages)) fields[name] = messages;
    else if (typeof messages === 'string') fields[name] = [messages];
  }
  return fields;
}

/**
 * The error an answer's body describes. The contract's 422 puts the fields in `message`
 * (`{"message": {"url": ["..."]}, "status": 422}`); a body with `errors` beside a text `message` is read too.
 */
export function errorFromBody(status: number, body: unknown): ApiError {
  if (typeof body !== 'object' || body === null) {
    return new ApiError(status, typeof body === 'string' && body !== '' ? body : `HTTP ${status}`);
  }
  const { message, errors } = body as { message?: unknown; errors?: unknown };
  const fields = fieldErrorsOf(errors) ?? (typeof message === 'object' ? fieldErrorsOf(message) : null) ?? {};
  const text = typeof message === 'string' ? message : (Object.values(fields)[0]?.[0] ?? `HTTP ${status}`);
  return new ApiError(status, text, fields);
}

/** The error of a response that was not a success, its body read as the API writes it. */
export async function errorFromResponse(response: Response, body?: unknown): Promise<ApiError> {
  const read: unknown = body === undefined ? await response.json().catch(() => null) : body;
  const error = errorFromBody(response.status, read);
  const wait = Number(response.headers.get('Retry-After') ?? '');
  if (response.status === 429 && Number.isInteger(wait) && wait > 0) error.retryAfter = wait;
  return error;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A request that the user or a newer request cancelled: nothing to show. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
