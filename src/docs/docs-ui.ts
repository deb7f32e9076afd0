import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { escapeHtml } from '../common/html';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Where the OpenAPI UI's files are served; each name carries a hash of its content. */
export const DOCS_ASSETS_PATH = '/docs/assets';

/** A year: the name changes whenever the content does, so a copy never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Starts Swagger UI on the service's OpenAPI document, without the top bar (there is only one document). */
const STARTER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/docs-json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

type Encoding = 'br' | 'gzip';

interface Asset {
  /** The name it is served under, with its hash. */
  name: string;
  type: string;
  body: Buffer;
  /** Compressed once, on first demand, and kept. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
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

function asset(file: string, type: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body, encoded: {} };
}

function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gzipped(body, { level: 9 });
}

/**
 * The OpenAPI UI at `/docs`, served by the service itself rather than by Nest's Swagger module: a page that reads
 * on a phone and carries the service's name, and Swagger UI's files under names that change with their content,
 * sent compressed (brotli or gzip, as the browser accepts) and cached for a year.
 */
export class DocsUi {
  private readonly assets = new Map<string, Asset>();
  private readonly page: string;

  constructor(title: string, distDirectory: string) {
    const read = (file: string) => readFileSync(join(distDirectory, file));
    const files = [
      asset('swagger-ui.css', 'text/css; charset=utf-8', read('swagger-ui.css')),
      asset('swagger-ui-bundle.js', 'text/javascript; charset=utf-8', read('swagger-ui-bundle.js')),
      asset('docs.js', 'text/javascript; charset=utf-8', Buffer.from(STARTER)),
      asset('favicon-32x32.png', 'image/png', read('favicon-32x32.png')),
    ];
    for (const file of files) this.assets.set(file.name, file);
    const [css, bundle, starter, icon] = files.map((file) => `${DOCS_ASSETS_PATH}/${file.name}`);
    this.page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <link rel="icon" type="image/png" href="${icon}" />
    <link rel="stylesheet" href="${css}" />
  </head>
  <body>
    <noscript>The API reference needs JavaScript; the OpenAPI document itself is at <a href="/docs-json">/docs-json</a>.</noscript>
    <div id="swagger-ui"></div>
    <script src="${bundle}"></script>
    <script src="${starter}"></script>
  </body>
</html>
`;
  }

  /** The served names of the assets, for tests and for the page. */
  assetNames(): string[] {
    return [...this.assets.keys()];
  }

  /** `GET /docs`: small, and checked again on every visit, so that it always names the current assets. */
  sendPage(_request: Request, response: Response): void {
    response
      .status(200)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' })
      .send(this.page);
  }

  /** `GET /docs/assets/{name}`; false when no asset has that name. */
  async sendAsset(request: Request, response: Response, name: string): Promise<boolean> {
    const file = this.assets.get(name);
    if (file === undefined) return false;
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
        'Content-Type': file.type,
        'Content-Length': String(body.length),
        'Cache-Control': IMMUTABLE,
        Vary: 'Accept-Encoding',
      })
      .end(request.method === 'HEAD' ? undefined : body);
    return true;
  }
}
