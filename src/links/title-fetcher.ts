import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { decode as decodeEntities } from 'html-entities';
import { decode as decodeBytes, encodingExists } from 'iconv-lite';
import {
  type AddressPolicy,
  checkedAddress,
  PUBLIC_ADDRESSES_ONLY,
  requestPinned,
} from '../common/outbound-address';
import { titlesConfig, type TitlesConfig } from '../config/app-config';
import { FetchSlots } from './fetch-slots';

export interface TitleFetchOptions extends AddressPolicy {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const TITLE_FETCH_OPTIONS = Symbol('TITLE_FETCH_OPTIONS');

export const DEFAULT_TITLE_FETCH_OPTIONS: TitleFetchOptions = {
  ...PUBLIC_ADDRESSES_ONLY,
  timeoutMs: 5000,
  maxBytes: 512 * 1024,
  maxRedirects: 3,
};

/** The title belongs in the head, at the top of the page: looking no further makes a big page no slower to scan. */
const TITLE_SCAN_CHARS = 64 * 1024;
/** Room for 255 characters even if each is written as an entity: decoding and folding never see more. */
const TITLE_TEXT_CHARS = 8 * 1024;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;

/** The text of the first `<title>`, entities decoded, white space folded, at most 255 characters. */
export function extractTitle(html: string): string | null {
  const raw = titleElementText(html.slice(0, TITLE_SCAN_CHARS));
  if (raw === null) return null;
  // Every entity of HTML, decoded as the standard decodes text (legacy ones without `;`, `&#150;` as `–`).
  const text = decodeEntities(raw.slice(0, TITLE_TEXT_CHARS), { level: 'html5', scope: 'body' })
    // PostgreSQL text cannot hold U+0000.
    .replaceAll('\u0000', '\ufffd')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : [...text].slice(0, 255).join('');
}

/**
 * The raw text of the first `<title>` element, found by indexOf alone so each character is looked at a bounded
 * number of times: a backtracking pattern took tens of seconds on a page of `<title` repeated.
 */
function titleElementText(html: string): string | null {
  let open = html.indexOf('<');
  while (open !== -1 && !(isWordAt(html, open + 1, 'title') && endsTagName(html.charCodeAt(open + 6)))) {
    open = html.indexOf('<', open + 1);
  }
  if (open === -1) return null;
  const openEnd = html.indexOf('>', open + 6);
  if (openEnd === -1) return null;
  const textStart = openEnd + 1;
  let close = html.indexOf('</', textStart);
  while (close !== -1) {
    let next = close + 2;
    if (isWordAt(html, next, 'title')) {
      next += 5;
      while (isHtmlSpace(html.charCodeAt(next))) next += 1;
      if (html.charCodeAt(next) === GREATER_THAN) return html.slice(textStart, close);
    }
    close = html.indexOf('</', next);
  }
  return null;
}

/** Whether the lower-case ASCII `word` is written at `at` in any case, without copying the page to lower-case it. */
function isWordAt(html: string, at: number, word: string): boolean {
  for (let offset = 0; offset < word.length; offset += 1) {
    // Setting bit 0x20 lower-cases an ASCII letter and turns no other character into one.
    if ((html.charCodeAt(at + offset) | 0x20) !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/** A tag name ends at white space, `/` or `>`: `<titles>` and `<title-bar>` are other elements. */
function endsTagName(code: number): boolean {
  return isHtmlSpace(code) || code === SLASH || code === GREATER_THAN;
}

/** Tab, line feed, form feed, carriage return and space. */
function isHtmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/**
 * Labels whose encoding browsers read otherwise than by the label's own name (the WHATWG Encoding standard):
 * ASCII and Latin-1 pages are read as windows-1252, Shift_JIS as Microsoft's superset of it, GBK as GB18030.
 */
const ENCODING_OF_LABEL: Record<string, string> = {
  ascii: 'windows-1252',
  'us-ascii': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  iso_8859_1: 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  cp819: 'windows-1252',
  'x-cp1252': 'windows-1252',
  shift_jis: 'cp932',
  'shift-jis': 'cp932',
  sjis: 'cp932',
  'x-sjis': 'cp932',
  ms_kanji: 'cp932',
  'windows-31j': 'cp932',
  gbk: 'gb18030',
  gb2312: 'gb18030',
  // A page that says UTF-16 in a meta element was read as ASCII to find it: it is not UTF-16.
  'utf-16': 'utf-8',
  'utf-16le': 'utf-8',
  'utf-16be': 'utf-8',
};

/** The encoding a charset label names, or null for a label no decoder knows. */
function encodingOf(label: string | undefined, fromMeta: boolean): string | null {
  if (label === undefined) return null;
  const name = label.trim().toLowerCase();
  const mapped = name.startsWith('utf-16') && !fromMeta ? name : (ENCODING_OF_LABEL[name] ?? name);
  return encodingExists(mapped) ? mapped : null;
}

const CHARSET_PARAMETER = /charset\s*=\s*["']?([\w.:+-]+)/i;
/** A meta element may declare the charset this far into the page; its tag is read up to this length. */
const META_SCAN_BYTES = TITLE_SCAN_CHARS;
const META_TAG_CHARS = 1024;

/** The charset of the first `<meta charset>` or `<meta http-equiv="content-type" content="...">`. */
function metaCharset(head: string): string | undefined {
  let open = head.indexOf('<');
  while (open !== -1) {
    if (isWordAt(head, open + 1, 'meta') && endsTagName(head.charCodeAt(open + 5))) {
      const close = head.indexOf('>', open);
      if (close === -1) return undefined;
      const tag = head.slice(open, Math.min(close, open + META_TAG_CHARS));
      const charset = CHARSET_PARAMETER.exec(tag)?.[1];
      if (charset !== undefined) return charset;
      open = close;
    }
    open = head.indexOf('<', open + 1);
  }
  return undefined;
}

/**
 * The page's text, in the character set it declares: a byte order mark first, then the Content-Type header's
 * charset, then a meta element's. An undeclared page is UTF-8 when its bytes are, else windows-1252 (what
 * browsers guess for a Western page).
 */
export function decodePage(body: Buffer, contentType: string): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return decodeBytes(body.subarray(3), 'utf-8');
  if (body[0] === 0xff && body[1] === 0xfe) return decodeBytes(body.subarray(2), 'utf-16le');
  if (body[0] === 0xfe && body[1] === 0xff) return decodeBytes(body.subarray(2), 'utf-16be');
  const declared =
    encodingOf(CHARSET_PARAMETER.exec(contentType)?.[1], false) ??
    encodingOf(metaCharset(body.subarray(0, META_SCAN_BYTES).toString('latin1')), true);
  if (declared !== null) return decodeBytes(body, declared);
  try {
    // `stream` keeps a character cut at the end of what was read from counting as invalid.
    return new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
  } catch {
    return decodeBytes(body, 'windows-1252');
  }
}

/**
 * Reads the `<title>` of link targets in the background: never blocking a request, with a short timeout and a
 * size cap, and never connecting to a private, loopback or link-local address (checked after DNS resolution,
 * on the address actually connected to, so a rebinding name cannot slip through). A bulk of links cannot make it
 * flood a site: fetches run a few at a time overall and per host (`TITLE_FETCH_CONCURRENCY`,
 * `TITLE_FETCH_PER_HOST`); the rest wait their turn, and past `TITLE_FETCH_QUEUE` waiting, a link gets no title.
 */
@Injectable()
export class TitleFetcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(TitleFetcher.name);
  private readonly pending = new Set<Promise<unknown>>();
  private readonly slots: FetchSlots;

  constructor(
    @Inject(TITLE_FETCH_OPTIONS) private readonly options: TitleFetchOptions,
    @Inject(titlesConfig.KEY) limits: TitlesConfig,
  ) {
    this.slots = new FetchSlots({
      concurrency: limits.titleFetchConcurrency,
      perHost: limits.titleFetchPerHost,
      queue: limits.titleFetchQueue,
    });
  }

  /**
   * Fetches the title of `url` and hands it to `store`, later, once a slot for its host is free. Failures, and a
   * fetch skipped because too many wait, are logged at debug level only.
   */
  schedule(url: string, store: (title: string) => Promise<unknown>): void {
    const run = () => {
      const task = this.fetchTitle(url)
        .then((title) => (title === null ? undefined : store(title)))
        .catch((error: unknown) => this.logger.debug(`No title for a link: ${String(error)}`))
        .finally(() => this.pending.delete(task));
      this.pending.add(task);
      return task;
    };
    // Redirects are followed within the slot of the link's own host.
    if (!this.slots.submit(new URL(url).hostname, run)) {
      this.logger.debug('No title for a link: too many title fetches waiting');
    }
  }

  /** Shutdown drops the fetches still waiting and waits for those under way; each is bounded by the timeout. */
  async beforeApplicationShutdown(): Promise<void> {
    this.slots.clear();
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

  private async get(url: URL): Promise<{ location: string | null; html: string | null }> {
    const target = await checkedAddress(url.hostname, this.options, {
      ms: this.options.timeoutMs,
      error: () => new Error('title fetch timed out'),
    });
    return new Promise((resolve, reject) => {
      const request = requestPinned(
        url,
        target,
        {
          method: 'GET',
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
            resolve({ location: null, html: decodePage(body, type) });
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
