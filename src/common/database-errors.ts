import { ConflictException, type HttpException } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { ValidationFailedException } from './exceptions';

const UNIQUE_VIOLATION = '23505';
/** read_only_sql_transaction: a write sent to a server that is (now) a standby. */
export const READ_ONLY_TRANSACTION = '25006';
const FOREIGN_KEY_VIOLATION = '23503';

/** What the violation of a named constraint means to an API client. */
type Meaning =
  /** A unique constraint or index: the value of this field is taken (422 naming the field). */
  | { code: typeof UNIQUE_VIOLATION; field: string }
  /** A foreign key, when a row of `referenced` still has rows pointing at it (409). */
  | { code: typeof FOREIGN_KEY_VIOLATION; referenced: string; message: string };

/**
 * The named constraints whose violations are the client's to hear about, each declared once beside the entity
 * that names it (see {@link uniqueField}, {@link stillReferenced}). The error filter answers them, so services save
 * without catching; a service catches only to act on one (a retry with another random alias).
 */
const MEANINGS = new Map<string, Meaning>();

/** Declares a unique constraint or index whose violation means `field`'s value is taken; returns its name. */
export function uniqueField(constraint: string, field: string): string {
  MEANINGS.set(constraint, { code: UNIQUE_VIOLATION, field });
  return constraint;
}

/** Declares a foreign key that refuses to delete a `referenced` row still in use, with this answer (409). */
export function stillReferenced(constraint: string, referenced: string, message: string): string {
  MEANINGS.set(constraint, { code: FOREIGN_KEY_VIOLATION, referenced, message });
  return constraint;
}

/** Laravel's message for a value that is taken: "The name has already been taken." */
export function takenMessage(field: string): string {
  return `The ${field.replace(/_/g, ' ')} has already been taken.`;
}

interface ViolationFields {
  code?: unknown;
  constraint?: unknown;
}

function violationOf(error: unknown): ViolationFields | null {
  return error instanceof QueryFailedError ? (error.driverError as ViolationFields) : null;
}

/** True when `error` is PostgreSQL's unique violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const violation = violationOf(error);
  return violation?.code === UNIQUE_VIOLATION && violation.constraint === constraint;
}

/** The table a DELETE statement deletes from, unquoted; null for any other statement. */
function deletedTable(query: string): string | null {
  const match = /^\s*DELETE\s+FROM\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(query);
  return match === null ? null : match[1];
}

/**
 * The contract's answer to the violation of a declared constraint: 422 naming the field of a taken value, 409 for
 * a row still referenced. Null for any other error. A foreign key refuses both a delete of the referenced row and
 * an insert that points at a missing one, and PostgreSQL names the referencing table for either: only a DELETE from
 * the referenced table is what a declared foreign key speaks of.
 */
export function constraintException(error: unknown): HttpException | null {
  const violation = violationOf(error);
  if (violation === null || typeof violation.constraint !== 'string') return null;
  const meaning = MEANINGS.get(violation.constraint);
  if (meaning === undefined || meaning.code !== violation.code) return null;
  if (meaning.code === UNIQUE_VIOLATION)
    return ValidationFailedException.of(meaning.field, takenMessage(meaning.field));
  const query = (error as QueryFailedError).query;
  return deletedTable(query) === meaning.referenced ? new ConflictException(meaning.message) : null;
}

/** Why the database cannot serve a request, when that is what an error means. */
export type DatabaseUnavailability =
  /** Down, unreachable, out of resources, shutting down or too slow: it may come back by itself. */
  | 'outage'
  /** The service may not use the database it is configured for (its credentials, a database that is gone). */
  | 'misconfiguration';

/** Socket errors on the way to the database. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** pg's own errors, which carry no code, for a connection that failed or a database that did not answer in time. */
const OUTAGE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection.*closed/i,
  /not queryable/i,
  // The client-side bound (query_timeout): no answer at all.
  /^Query read timeout$/,
];

interface DriverErrorFields {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  table?: unknown;
  column?: unknown;
  constraint?: unknown;
  address?: unknown;
  port?: unknown;
}

/**
 * The driver's error: a QueryFailedError's cause, or the error itself, since a failure to connect is not wrapped.
 * Read as a plain object: errors raised by Node itself may come from another realm and fail `instanceof Error`.
 */
function driverErrorOf(error: unknown): DriverErrorFields | null {
  const driverError: unknown = error instanceof QueryFailedError ? error.driverError : error;
  return typeof driverError === 'object' && driverError !== null ? driverError : null;
}

/**
 * Whether `error` means that the database cannot serve requests right now, which the API answers with a 503:
 * the SQLSTATE classes 08 (connection exception), 53 (insufficient resources) and 57P (operator intervention, such as
 * a shutdown or a dropped database), 57014 (a statement cancelled, by the statement timeout among others), 55000 when
 * it refuses a new session ("not currently accepting connections"), 25006 (a write that reached a standby: a
 * connection made before a failover, or routed while it ran), and 3D000 (no such database) and class 28
 * (authorization), which an operator has to fix. Null for anything else, a bug of ours.
 */
export function databaseUnavailability(error: unknown): DatabaseUnavailability | null {
  const driverError = driverErrorOf(error);
  if (driverError === null) return null;
  const { code, message } = driverError;
  if (typeof code !== 'string') {
    return typeof message === 'string' && OUTAGE_MESSAGES.some((pattern) => pattern.test(message))
      ? 'outage'
      : null;
  }
  if (code === '3D000' || code.startsWith('28')) return 'misconfiguration';
  // A write that reached a server in recovery: a standby, or a former primary not yet fenced off, during a failover.
  if (code === READ_ONLY_TRANSACTION) return 'outage';
  if (SOCKET_CODES.has(code) || /^(08|53|57P)/.test(code) || code === '57014') return 'outage';
  // Refusing a session (the error comes from connecting, so unwrapped); from a statement, 55000 is a bug of ours.
  if (code === '55000' && !(error instanceof QueryFailedError)) return 'outage';
  return null;
}

/** True for an error from PostgreSQL or about a statement: its message, detail and parameters may quote values. */
export function isDatabaseError(error: unknown): boolean {
  if (error instanceof QueryFailedError) return true;
  const driverError = driverErrorOf(error);
  return (
    typeof driverError?.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(driverError.code) &&
    typeof driverError.severity === 'string'
  );
}

/** The first table a statement reads or writes, possibly schema-qualified and quoted. */
const FIRST_TABLE =
  /\b(?:FROM|INTO|UPDATE|JOIN)\s+((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?)/i;

/**
 * A name for a statement that lets an operator find it, without its values: its verb, its first table and a hash of
 * its shape (the text with literals blanked), the same for every run of the same statement whatever its values.
 */
export function statementName(sql: string): string {
  const shape = sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/(?<![\w$."])\d+(?:\.\d+)?/g, '0')
    .replace(/\s+/g, ' ')
    .trim();
  const hash = createHash('sha256').update(shape).digest('hex').slice(0, 8);
  const verb = /^[\s(]*([A-Za-z]+)/.exec(shape)?.[1]?.toUpperCase() ?? 'SQL';
  const table = FIRST_TABLE.exec(shape)?.[1]?.replaceAll('"', '');
  return table === undefined ? `${verb} #${hash}` : `${verb} ${table} #${hash}`;
}

/**
 * One log line's worth about a database error, safe to keep: the SQL state (or socket error code), the table, column
 * and constraint where PostgreSQL names them, and the statement's name. Never the bound parameters, nor PostgreSQL's
 * message or detail, which quote values ("Key (alias)=(...) already exists"); a message only when it is one of pg's
 * own fixed texts.
 */
export function describeDatabaseError(error: unknown): string {
  const driverError = driverErrorOf(error) ?? {};
  const { code, message } = driverError;
  const parts = [`code=${typeof code === 'string' ? code : 'none'}`];
  for (const field of ['table', 'column', 'constraint'] as const) {
    const value = driverError[field];
    if (typeof value === 'string' && value !== '') parts.push(`${field}=${value}`);
  }
  // Where a socket error was going: the configured database server, not request data.
  if (typeof driverError.address === 'string')
    parts.push(`address=${driverError.address}:${String(driverError.port)}`);
  if (typeof code !== 'string' && typeof message === 'string') {
    if (OUTAGE_MESSAGES.some((pattern) => pattern.test(message))) parts.push(`reason="${message}"`);
  }
  if (error instanceof QueryFailedError && typeof error.query === 'string') {
    parts.push(`statement="${statementName(error.query)}"`);
  }
  return parts.join(' ');
}
