import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** How much of an IPv6 address one client controls: a /64 is what a single subscriber is given. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * The key a limit counts a client by: an IPv4 address as it is (IPv4-mapped IPv6 included), an IPv6 address by
 * its /64, so that a client cannot get a fresh budget by moving to another address of its own network.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${IPV6_CLIENT_PREFIX}`);
  return `${prefix.toString()}/${IPV6_CLIENT_PREFIX}`;
}

/**
 * The client's address as a record keeps it (an audit entry, a session): Express's `request.ip`, which behind a
 * trusted proxy is whatever that proxy forwarded, or null when that is no address at all.
 */
export function recordedAddress(address: string | undefined): string | null {
  return address !== undefined && isIP(address) !== 0 ? address : null;
}
