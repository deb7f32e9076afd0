import { isRole, ROLES, type Role } from '../auth/roles';
import { isScope, SCOPES, type Scope } from '../auth/scopes';
import { MAX_ID, parseDateTime } from '../common/validation';
import { UsageError } from './output';

/**
 * What an option of a command holds once parsed: its value, `true` when it came without one (`--name` last, or
 * followed by another option), or undefined when it was not given.
 */
export type Given<T> = T | true | undefined;

/** The value of an option given with a non-blank value; `Missing --name` otherwise. */
export function text(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`Missing ${flag}`);
  return value;
}

/** An option the command cannot do without: given, and with a value. */
export function required<T>(flag: string, value: Given<T>): T {
  if (value === undefined || value === true) throw new UsageError(`Missing ${flag}`);
  return value;
}

/** An option that may be absent; given, it must have a value. */
export function optional<T>(flag: string, value: Given<T>): T | undefined {
  if (value === true) throw new UsageError(`Missing ${flag}`);
  return value;
}

/** An account's name: trimmed, at most 255 characters. */
export function accountName(value: string): string {
  const name = text('--name', value).trim();
  if (name.length > 255) throw new UsageError('--name must be at most 255 characters');
  return name;
}

/** An address of the form name@host.tld, at most 255 characters: what the account resource reports. */
export function emailAddress(value: string): string {
  const email = text('--email', value).trim();
  if (email.length > 255 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw new UsageError('--email must be an email address of at most 255 characters');
  }
  return email;
}

/**
 * An account id as written: the digits of a positive number. One beyond PostgreSQL's integers names no account
 * (and would fail as a query): it is kept as written, for the message, and {@link accountIdOf} gives null for it.
 */
export function accountId(value: string): string {
  return idOption('--account', 'an account id', value);
}

/** `--account ID`, as every command on one account takes it. */
export const ACCOUNT_OPTION = {
  value: 'ID',
  description: "the account's id",
  required: true,
  parse: accountId,
};

/** `--name NAME` of an account, as account:create (where it is required) and account:update take it. */
export const ACCOUNT_NAME_OPTION = { value: 'NAME', description: "the account's name", parse: accountName };

/** `--email EMAIL` of an account, as account:create and account:update take it. */
export const ACCOUNT_EMAIL_OPTION = {
  value: 'EMAIL',
  description: "the account's email address",
  parse: emailAddress,
};

/** A link id as written, as {@link accountId} takes an account's. */
export function linkId(value: string): string {
  return idOption('--link', 'a link id', value);
}

function idOption(flag: string, what: string, value: string): string {
  const id = text(flag, value);
  if (!/^[1-9]\d{0,9}$/.test(id)) throw new UsageError(`${flag} must be ${what}`);
  return id;
}

/** The number of an account id, or null for one no account can have. */
export function accountIdOf(id: string): number | null {
  const number = Number(id);
  return number > MAX_ID ? null : number;
}

/** A key's name: trimmed, 1 to 100 characters, as the API takes it. */
export function keyName(value: string): string {
  const name = text('--name', value).trim();
  if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
  return name;
}

/** Comma-separated scopes (`links.read,stats.read`), each one of the contract's, at least one. */
export function scopeList(value: string): Scope[] {
  const names = text('--scopes', value)
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isScope(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--scopes must be comma-separated scopes among: ${SCOPES.join(', ')}`);
  }
  return [...new Set(names as Scope[])];
}

/** When a key stops working: `Y-m-d H:i` in UTC (or ISO 8601 with a zone), in the future. */
export function expiry(value: string): Date {
  const date = parseDateTime(text('--expires', value).trim());
  if (date === null) throw new UsageError('--expires must be a date and time: Y-m-d H:i (UTC)');
  if (date.getTime() <= Date.now()) throw new UsageError('--expires must be in the future');
  return date;
}

/** A person's password: 10 to 256 characters, taken as given. */
export function password(value: string): string {
  if (value.length < 10 || value.length > 256)
    throw new UsageError('--password must be 10 to 256 characters');
  return value;
}

/** A member's role. */
export function role(value: string): Role {
  if (!isRole(value)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return value;
}

/** A person's email, in lower case as users are kept. */
export function userEmail(value: string): string {
  return emailAddress(value).toLowerCase();
}
