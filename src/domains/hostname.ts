import { domainToASCII } from 'node:url';

/** As phpShort reads a domain name that was sent as a URL: without an http(s) scheme and one trailing slash. */
export function withoutScheme(value: string): string {
  return value
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '');
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The canonical form of a domain name as a client may send it (any case, Unicode or punycode, an optional
 * port), or null when it is not a hostname. No scheme, path or credentials.
 */
export function canonicalHost(value: string): string | null {
  const match = /^([^:/?#@\s]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (match === null) return null;
  const [, name, port] = match;
  const ascii = domainToASCII(name.replace(/\.$/, '')).toLowerCase();
  if (ascii === '' || ascii.length > 253) return null;
  if (!ascii.split('.').every((label) => LABEL.test(label))) return null;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  const host = port === undefined ? ascii : `${ascii}:${Number(port)}`;
  // The name column holds 255 characters: a 253-character name with a port would not fit.
  return host.length > 255 ? null : host;
}
