import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Express, NextFunction, Request, Response } from 'express';
import { contentType, IMMUTABLE, sendAsset, staticAsset, type StaticAsset } from '../common/static-assets';

/** Where the dashboard is served: `/app`, an alias no link may take (see links/reserved-aliases.ts). */
export const DASHBOARD_PATH = '/app';

/** The dashboard's build, beside the service's (`npm run build` makes both). */
export const DASHBOARD_DIST = join(__dirname, '..', '..', 'dashboard', 'dist');

/**
 * The dashboard's pages may run their own files and nothing else: no inline script or style, no other origin, no
 * frame around them. Images may be data: or blob: URLs (QR codes shown and downloaded), or https ones: the social
 * preview card shows the image a link's `og_image_url` names, as the networks will (sent without a referrer).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CSP,
  // Checked again on every visit, so that it always names the current build's files.
  'Cache-Control': 'no-cache',
  'Referrer-Policy': 'same-origin',
};

/**
 * The dashboard, a single-page app built into `dashboard/dist`: its files from memory under `/app/assets/` (their
 * names change with their content: cached for a year), and its page for `/app` and every path under it, which the
 * app routes itself. Without a build, `/app` says how to make one.
 */
export class DashboardUi {
  private readonly assets = new Map<string, StaticAsset>();
  private readonly topLevel = new Map<string, StaticAsset>();
  private readonly page: StaticAsset | null;

  constructor(distDirectory: string) {
    const index = join(distDirectory, 'index.html');
    this.page = existsSync(index) ? staticAsset('text/html; charset=utf-8', readFileSync(index)) : null;
    const assets = join(distDirectory, 'assets');
    if (!existsSync(assets)) return;
    for (const name of readdirSync(assets)) {
      this.assets.set(name, staticAsset(contentType(name), readFileSync(join(assets, name))));
    }
    for (const name of readdirSync(distDirectory)) {
      // Files beside the page (an icon, a manifest): served under their own names, checked on every visit.
      if (name === 'index.html' || name === 'assets' || this.assets.has(name)) continue;
      this.topLevel.set(name, staticAsset(contentType(name), readFileSync(join(distDirectory, name))));
    }
  }

  get built(): boolean {
    return this.page !== null;
  }

  /** Routes `/app`, `/app/assets/{name}` and `/app/*` on the Express instance, ahead of the service's routes. */
  install(http: Pick<Express, 'get'>): void {
    const send = (
      request: Request,
      response: Response,
      next: NextFunction,
      file: StaticAsset | undefined,
      cache: Record<string, string>,
    ) => {
      if (file === undefined) return next();
      sendAsset(request, response, file, cache).catch(next);
    };
    http.get(`${DASHBOARD_PATH}/assets/:name`, (request: Request<{ name: string }>, response, next) =>
      send(request, response, next, this.assets.get(request.params.name), { 'Cache-Control': IMMUTABLE }),
    );
    http.get(`${DASHBOARD_PATH}/:name`, (request: Request<{ name: string }>, response, next) => {
      const file = this.topLevel.get(request.params.name);
      if (file !== undefined) return send(request, response, next, file, { 'Cache-Control': 'no-cache' });
      this.sendPage(request, response, next);
    });
    http.get(
      [DASHBOARD_PATH, `${DASHBOARD_PATH}/*path`],
      (request: Request, response: Response, next: NextFunction) => this.sendPage(request, response, next),
    );
  }

  private sendPage(request: Request, response: Response, next: NextFunction): void {
    if (request.path.startsWith(`${DASHBOARD_PATH}/assets/`)) return next();
    if (this.page === null) {
      response
        .status(503)
        .set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
        .send(
          'The dashboard is not built: run `npm run build` (or `npm start`, which builds what is missing).\n',
        );
      return;
    }
    sendAsset(request, response, this.page, PAGE_HEADERS).catch(next);
  }
}
