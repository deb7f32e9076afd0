import express from 'express';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DASHBOARD_CSP, DashboardUi } from '../src/dashboard/dashboard-ui';

const PAGE =
  '<!doctype html><title>Dashboard</title><script type="module" src="/app/assets/index-abc123.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

/** The dashboard's files as the service serves them, from a build made for the test. */
describe('the dashboard UI', () => {
  let dir: string;
  let app: express.Express;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dashboard-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = express();
    new DashboardUi(dir).install(app);
    app.use((_request, response) => void response.status(404).send('not here'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['/app', '/app/', '/app/links', '/app/links/12/stats'])(
    'answers %s with the page, under a strict CSP, checked again on every visit',
    async (path) => {
      const response = await request(app).get(path);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(response.headers['content-security-policy']).not.toContain('unsafe');
      expect(response.text).toBe(PAGE);
    },
  );

  it('serves a built file compressed and cached for a year, and 404 for a name the build lacks', async () => {
    const response = await request(app)
      .get('/app/assets/index-abc123.js')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
    // Sent compressed (supertest inflates it): fewer bytes on the wire than the file has.
    expect(Number(response.headers['content-length'])).toBeLessThan(SCRIPT.length / 4);
    expect((response.body as Buffer).toString()).toBe(SCRIPT);

    const missing = await request(app).get('/app/assets/index-000000.js');
    expect(missing.status).toBe(404);
    const icon = await request(app).get('/app/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
  });

  it('says how to build it when there is no build', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dashboard-none-'));
    try {
      const bare = express();
      const ui = new DashboardUi(empty);
      ui.install(bare);
      expect(ui.built).toBe(false);
      const response = await request(bare).get('/app/links');
      expect(response.status).toBe(503);
      expect(response.text).toContain('npm run build');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
