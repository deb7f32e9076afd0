import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, isIPv6, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the service may connect when it makes a request a user chose the address of (a link's title, a webhook):
 * the policy, the resolution it judges and the lookup that holds the connection to what it judged.
 */
export interface AddressPolicy {
  /** Host name to addresses. */
  resolve: (host: string) => Promise<string[]>;
  /** Whether the service may connect to an address. */
  allowAddress: (address: string) => boolean;
}

/** An address that passed the policy, the one the connection goes to. */
export interface CheckedAddress {
  address: string;
  family: number;
}

/** Bounds the resolution, which has no deadline of its own, and says what a stalled resolver is reported as. */
export interface ResolutionDeadline {
  ms: number;
  error: () => Error;
}

/** A host the policy refuses: one of its addresses is not allowed, or it has none. */
export class AddressRefusedError extends Error {
  constructor(host: string) {
    super(`refused to connect to ${host}`);
    this.name = 'AddressRefusedError';
  }
}

/** Every address the system resolver gives for a name, as the operating system would connect to it. */
export async function resolveHost(host: string): Promise<string[]> {
  return (await dnsLookup(host, { all: true })).map((entry) => entry.address);
}

/**
 * Public unicast addresses only: never loopback, private, link-local, unique-local, multicast or reserved. An IPv6
 * address that carries an IPv4 one (mapped, NAT64, 6to4, Teredo) is judged by the IPv4 address it leads to.
 */
export function isPublicAddress(address: string): boolean {
  // Only the spellings a socket takes as written, so the check and the connection cannot read them differently.
  if (isIP(address) === 0) return false;
  // A zone only names a link: no public address needs one.
  if (address.includes('%')) return false;
  const parsed = ipaddr.parse(isIPv6(address) ? canonicalIPv6(address) : address);
  return parsed instanceof ipaddr.IPv6 ? isPublicIPv6(parsed) : isPublicIPv4(parsed);
}

/** ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`; the URL standard's hexadecimal form means one thing only. */
function canonicalIPv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

function isPublicIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

/** Only 2000::/3 is assigned for global unicast; outside it lie the IPv4-compatible ::/96 and other reserved space. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** RFC 6052's well-known NAT64 prefix; the local-use 64:ff9b:1::/48 belongs to a private network's translator. */
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
      return isPublicIPv4(ipv4FromParts(parts[6], parts[7]));
    case 'rfc6052':
      return address.match(WELL_KNOWN_NAT64) && isPublicIPv4(ipv4FromParts(parts[6], parts[7]));
    case '6to4':
      return isPublicIPv4(ipv4FromParts(parts[1], parts[2]));
    case 'teredo':
      // The Teredo server sits in bits 32-63 and the client, inverted, in the last 32: both ends must be public.
      return (
        isPublicIPv4(ipv4FromParts(parts[2], parts[3])) &&
        isPublicIPv4(ipv4FromParts(parts[6] ^ 0xffff, parts[7] ^ 0xffff))
      );
    case 'unicast':
      return address.match(GLOBAL_UNICAST);
    case 'unspecified':
    case 'loopback':
    case 'linkLocal':
    case 'uniqueLocal':
    case 'multicast':
    case 'rfc6145': // IPv4-translated ::ffff:0:a.b.c.d: like IPv4-compatible, a form no network routes any more.
    case 'reserved':
    case 'benchmarking':
    case 'amt':
    case 'as112v6':
    case 'orchid2':
    case 'droneRemoteIdProtocolEntityTags':
      return false;
    // Ranges ipaddr.js reports beyond its types: discard, deprecatedSiteLocal, deprecatedOrchid, segmentRouting.
    default:
      return false;
  }
}

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Rejects with `error()` once `ms` have passed, unless `promise` settled first. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address to connect to for `host` (a URL's hostname: a name, an IPv4 address or a bracketed IPv6 one),
 * resolved within the deadline; throws AddressRefusedError unless the policy allows every address it has.
 */
export async function checkedAddress(
  host: string,
  policy: AddressPolicy,
  deadline: ResolutionDeadline,
): Promise<CheckedAddress> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses =
    isIP(bare) !== 0 ? [bare] : await withDeadline(policy.resolve(bare), deadline.ms, deadline.error);
  // Every address the name has must be allowed: otherwise a retry could land on a forbidden one.
  if (addresses.length === 0 || !addresses.every((address) => policy.allowAddress(address))) {
    throw new AddressRefusedError(host);
  }
  return { address: addresses[0], family: isIP(addresses[0]) };
}

/**
 * A `lookup` for a request that answers every name with the checked address, so the socket connects where the
 * policy looked and a name that resolves otherwise the second time (DNS rebinding) cannot move it.
 */
export function lookupPinnedTo(target: CheckedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
}

/** The policy of every outbound request the service makes for its users: names as DNS answers them, public addresses only. */
export const PUBLIC_ADDRESSES_ONLY: AddressPolicy = { resolve: resolveHost, allowAddress: isPublicAddress };

/** `policy`, or with every address allowed where an operator lets this kind of request reach private ones. */
export function allowingPrivate(policy: AddressPolicy, allowPrivate: boolean): AddressPolicy {
  return allowPrivate ? { resolve: policy.resolve, allowAddress: () => true } : policy;
}

/** The errors a caller gives for each way the address of its URL cannot be had. */
export interface AddressFailures {
  refused: () => Error;
  timedOut: () => Error;
  unresolved: (error: unknown) => Error;
}

/** The address to connect to for `url`, resolved within `deadlineMs`, every failure as the caller names it. */
export async function addressOf(
  url: URL,
  policy: AddressPolicy,
  deadlineMs: number,
  failures: AddressFailures,
): Promise<CheckedAddress> {
  let timeout: Error | undefined;
  try {
    return await checkedAddress(url.hostname, policy, {
      ms: deadlineMs,
      error: () => (timeout = failures.timedOut()),
    });
  } catch (error) {
    if (error instanceof AddressRefusedError) throw failures.refused();
    if (error === timeout) throw error;
    throw failures.unresolved(error);
  }
}

/**
 * A request to `url`, over http or https as it says, whose socket connects to `address` alone, on a connection of
 * its own: no pooled socket outlives the address check it was made for.
 */
export function requestPinned(
  url: URL,
  address: CheckedAddress,
  options: RequestOptions,
  onResponse?: (response: IncomingMessage) => void,
): ClientRequest {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(url, { ...options, lookup: lookupPinnedTo(address), agent: false }, onResponse);
}
