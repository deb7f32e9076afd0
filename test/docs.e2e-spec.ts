import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { preferredEncoding } from '../src/common/static-assets';
import { createTestApp, type TestApp } from './support/app';
import { rawRequest, type RawResponse } from './support/api';

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.1, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['identity', null],
    ['deflate', null],
    ['', null],
    [undefined, null],
    // An unreadable weight counts as the default, 1.
    ['br;q=2, gzip;q=abc', 'br'],
  ])('reads %j as %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('The OpenAPI UI at /docs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_NAME: 'Sho.rt <links>' });
    await t.app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A request whose answer is read as sent: supertest would decompress it. */
  function get(path: string, encoding = 'identity', method = 'GET'): Promise<RawResponse> {
    return rawRequest(t, path, { method, headers: { 'Accept-Encoding': encoding } });
  }

  async function assets(): Promise<string[]> {
    const page = (await get('/docs')).body;
    return [...page.toString('utf8').matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map(
      (match) => match[1],
    );
  }

  it('is a page that reads on a phone, titled with the service’s name, and checked on every visit', async () => {
    const response = await get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const page = response.body.toString('utf8');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />');
    expect(page).toContain('<title>Sho.rt &lt;links&gt; API</title>');
    expect(page).toContain('<div id="swagger-ui"></div>');
    // No inline script: the service's Content-Security-Policy allows its own files only.
    expect(page).not.toMatch(/<script>/);
    expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('names every asset by a hash of its content', async () => {
    const names = await assets();
    expect(names).toHaveLength(4);
    for (const name of names) {
      expect(name).toMatch(/^\/docs\/assets\/[a-z0-9-]+\.[0-9a-f]{16}\.(js|css|png)$/);
    }
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ])('sends the assets compressed with %s, cached for a year', async (encoding, decompress) => {
    const bundle = (await assets()).find((name) => name.includes('swagger-ui-bundle'))!;
    const plain = await get(bundle);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const compressed = await get(bundle, `${encoding}, deflate`);
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe(encoding);
    expect(compressed.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(compressed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(compressed.headers.vary).toContain('Accept-Encoding');
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
    expect(decompress(compressed.body).equals(plain.body)).toBe(true);
    // The whole bundle is over 1.5 MB; compressed, about a quarter of that or less.
    expect(compressed.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('prefers brotli, and takes the weights of Accept-Encoding into account', async () => {
    const css = (await assets()).find((name) => name.endsWith('.css'))!;
    expect((await get(css, 'gzip, deflate, br')).headers['content-encoding']).toBe('br');
    expect((await get(css, 'br;q=0.1, gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get(css, 'br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD with the headers alone', async () => {
    const css = (await assets()).find((name) => name.endsWith('.css'))!;
    const response = await get(css, 'gzip', 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(Number(response.headers['content-length'])).toBeGreaterThan(1000);
    expect(response.body).toHaveLength(0);
  });

  it.each([
    '/docs/assets/swagger-ui-bundle.js',
    '/docs/assets/nothing.0123456789abcdef.js',
    '/docs/assets/..%2f..%2fpackage.json',
  ])('answers an unknown asset %s with the 404 page', async (path) => {
    const response = await t.http().get(path);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('still serves the OpenAPI document at /docs-json and /docs-yaml', async () => {
    const json = await t.http().get('/docs-json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toMatch(/^3\./);
    const yaml = await t.http().get('/docs-yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.text).toMatch(/^openapi: 3\./);
  });
});
