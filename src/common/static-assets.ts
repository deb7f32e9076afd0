import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** A year: for files whose name changes whenever their content does, so that a copy never goes stale. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

type Encoding = 'br' | 'gzip';

/** A file served from memory, compressed once on first demand for each encoding asked, and kept. */
export interface StaticAsset {
  type: string;
  body: Buffer;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

export function staticAsset(type: string, body: Buffer): StaticAsset {
  return { type, body, encoded: {} };
}

/** The content type of a built front-end's file, by its extension. */
export function contentType(file: string): string {
  const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  return (
    {
      js: 'text/javascript; charset=utf-8',
      mjs: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      html: 'text/html; charset=utf-8',
      json: 'application/json',
      svg: 'image/svg+xml',
      png: 'image/png',
      ico: 'image/x-icon',
      webp: 'image/webp',
      woff2: 'font/woff2',
      txt: 'text/plain; charset=utf-8',
      map: 'application/json',
    }[extension] ?? 'application/octet-stream'
  );
}

/**
 * The encoding to send for an `Accept-Encoding` header: brotli (the smaller) unless gzip weighs more, gzip, or
 * none. Browsers list gzip first and weigh both alike, so the order of the header is not a preference.
 */
export function preferredEncoding(header: string | undefined): Encoding | null {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').slice(0, 1024).split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (name === '') continue;
    const quality = parameters
      .map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter))
      .find(Boolean);
    weights.set(name, quality ? Number(quality[1]) : 1);
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const [br, gz] = [weight('br'), weight('gzip')];
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : null;
}

function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gzipped(body, { level: 9 });
}

/** Sends `file` with status 200, compressed as the browser accepts, under `headers` (Cache-Control among them). */
export async function sendAsset(
  request: Request,
  response: Response,
  file: StaticAsset,
  headers: Record<string, string>,
): Promise<void> {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  let body = file.body;
  if (encoding !== null) {
    // A failed compression is not kept: the next request tries again.
    const encoded = (file.encoded[encoding] ??= compress(file.body, encoding).catch((error: unknown) => {
      delete file.encoded[encoding];
      throw error;
    }));
    body = await encoded;
    response.set('Content-Encoding', encoding);
  }
  response
    .status(200)
    .set({
      ...headers,
      'Content-Type': file.type,
      'Content-Length': String(body.length),
      Vary: 'Accept-Encoding',
    })
    .end(request.method === 'HEAD' ? undefined : body);
}
