import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface TitleFetchOptions {
  /** Host name to addresses. */
  resolve: (host: string) => Promise<string[]>;
  /** Whether the service may connect to an address. */
  allowAddress: (address: string) => boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const TITLE_FETCH_OPTIONS = Symbol('TITLE_FETCH_OPTIONS');

/** Public unicast addresses only: never loopback, private, link-local, unique-local, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

export const DEFAULT_TITLE_FETCH_OPTIONS: TitleFetchOptions = {
  resolve: async (host) => (await dnsLookup(host, { all: true })).map((entry) => entry.address),
  allowAddress: isPublicAddress,
  timeoutMs: 5000,
  maxBytes: 512 * 1024,
  maxRedirects: 3,
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of the first `<title>`, entities decoded, white space folded, at most 255 characters. */
export function extractTitle(html: string): string | null {
  const match = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (match === null) return null;
  const text = match[1]
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, body: string) => {
      if (body.startsWith('#x') || body.startsWith('#X'))
        return safeCodePoint(parseInt(body.slice(2), 16), entity);
      if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10), entity);
      return ENTITIES[body.toLowerCase()] ?? entity;
    })
    // PostgreSQL text cannot hold U+0000.
    .replaceAll('\u0000', '\ufffd')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : [...text].slice(0, 255).join('');
}

function safeCodePoint(code: number, fallback: string): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

class Refused extends Error {}

/** Name resolution has no deadline of its own: a stalled resolver must not hold a fetch past its timeout. */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('title fetch timed out')), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the `<title>` of link targets in the background: never blocking a request, with a short timeout and a
 * size cap, and never connecting to a private, loopback or link-local address (checked after DNS resolution,
 * on the address actually connected to, so a rebinding name cannot slip through).
 */
@Injectable()
export class TitleFetcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(TitleFetcher.name);
  private readonly pending = new Set<Promise<unknown>>();

  constructor(@Inject(TITLE_FETCH_OPTIONS) private readonly options: TitleFetchOptions) {}

  /** Fetches the title of `url` and hands it to `store`, later. Failures are logged at debug level only. */
  schedule(url: string, store: (title: string) => Promise<unknown>): void {
    const task = this.fetchTitle(url)
      .then((title) => (title === null ? undefined : store(title)))
      .catch((error: unknown) => this.logger.debug(`No title for a link: ${String(error)}`))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Shutdown waits for fetches under way; each is bounded by the timeout. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  async fetchTitle(url: string): Promise<string | null> {
    let current = new URL(url);
    for (let hop = 0; hop <= this.options.maxRedirects; hop += 1) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') return null;
      const response = await this.get(current);
      if (response.location !== null) {
        current = new URL(response.location, current);
        continue;
      }
      return response.html === null ? null : extractTitle(response.html);
    }
    return null;
  }

  private async addressFor(host: string): Promise<{ address: string; family: number }> {
    const bare = host.replace(/^\[|\]$/g, '');
    const addresses =
      isIP(bare) !== 0 ? [bare] : await withDeadline(this.options.resolve(bare), this.options.timeoutMs);
    // Every address the name has must be allowed: otherwise a retry could land on a forbidden one.
    if (addresses.length === 0 || !addresses.every((address) => this.options.allowAddress(address))) {
      throw new Refused(`refused to connect to ${host}`);
    }
    return { address: addresses[0], family: isIP(addresses[0]) };
  }

  private async get(url: URL): Promise<{ location: string | null; html: string | null }> {
    const target = await this.addressFor(url.hostname);
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all === true) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method: 'GET',
          lookup,
          timeout: this.options.timeoutMs,
          headers: { 'user-agent': 'Mozilla/5.0 (compatible; link-title-fetcher)', accept: 'text/html' },
        },
        (response: IncomingMessage) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && typeof response.headers.location === 'string') {
            response.resume();
            resolve({ location: response.headers.location, html: null });
            return;
          }
          const type = response.headers['content-type'] ?? '';
          if (status !== 200 || !/html/i.test(type)) {
            response.resume();
            resolve({ location: null, html: null });
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          const finish = () => {
            request.destroy();
            // A chunk may run past the cap: what lies beyond it is never read.
            const body = Buffer.concat(chunks).subarray(0, this.options.maxBytes);
            resolve({ location: null, html: body.toString('utf8') });
          };
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            // The title is near the top: stop at the cap or as soon as it has been read.
            if (size >= this.options.maxBytes || /<\/title\s*>/i.test(chunk.toString('latin1'))) finish();
          });
          response.on('end', finish);
          response.on('error', reject);
        },
      );
      const deadline = setTimeout(
        () => request.destroy(new Error('title fetch timed out')),
        this.options.timeoutMs,
      );
      request.on('close', () => clearTimeout(deadline));
      request.on('timeout', () => request.destroy(new Error('title fetch timed out')));
      request.on('error', reject);
      request.end();
    });
  }
}
