import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { escapeHtml } from '../common/html';
import { IMMUTABLE, sendAsset, staticAsset, type StaticAsset } from '../common/static-assets';

/** Where the OpenAPI UI's files are served; each name carries a hash of its content. */
export const DOCS_ASSETS_PATH = '/docs/assets';

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

interface Asset extends StaticAsset {
  /** The name it is served under, with its hash. */
  name: string;
}

function asset(file: string, type: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, ...staticAsset(type, body) };
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
    await sendAsset(request, response, file, { 'Cache-Control': IMMUTABLE });
    return true;
  }
}
