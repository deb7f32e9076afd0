import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Response } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { createLink, expectPage, type LinkData } from './support/visitors';
import { NOT_FOUND } from './support/contract';

/** What a phone's camera would read: the text of the QR code in a PNG answer. */
function decode(response: Response): { text: string | null; png: PNG } {
  expect(response.headers['content-type']).toBe('image/png');
  const png = PNG.sync.read(response.body as Buffer);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { text: code?.data ?? null, png };
}

/** Every distinct colour of a PNG, as six hex digits. */
function colours(png: PNG): Set<string> {
  const seen = new Set<string>();
  for (let offset = 0; offset < png.data.length; offset += 4) {
    seen.add([0, 1, 2].map((channel) => png.data[offset + channel].toString(16).padStart(2, '0')).join(''));
  }
  return seen;
}

/** Supertest keeps an image/svg+xml answer as text only when asked to. */
function svgText(response: Response): string {
  return Buffer.isBuffer(response.body) ? response.body.toString('utf8') : response.text;
}

describe('QR codes', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let link: LinkData;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    other = await createAccount(t);
    link = await createLink(t, owner, { url: 'https://example.com/printed' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (path: string, account: TestAccount = owner) =>
    t.http().get(path).set('Authorization', account.auth).buffer(true).parse(binary);

  describe('GET /api/v1/links/{id}/qr', () => {
    it('answers a PNG that reads back as the short URL, at the size asked for', async () => {
      const response = await api(`/api/v1/links/${link.id}/qr?format=png&size=300`);
      expect(response.status).toBe(200);
      const { text, png } = decode(response);
      expect(text).toBe(link.short_url);
      expect([png.width, png.height]).toEqual([300, 300]);
      expect(response.headers['cache-control']).toBe('private, max-age=300');
    });

    it('draws in the colours asked for', async () => {
      const response = await api(`/api/v1/links/${link.id}/qr?format=png&color=%231A2B3C&background=fafafa`);
      const { text, png } = decode(response);
      expect(text).toBe(link.short_url);
      expect([...colours(png)].sort()).toEqual(['1a2b3c', 'fafafa']);
    });

    it('answers SVG by default, with the colours and size asked for', async () => {
      const response = await api(`/api/v1/links/${link.id}/qr?size=128&color=00ff00`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
      const svg = svgText(response);
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="128" height="128" /);
      expect(svg).toContain('stroke="#00ff00"');
      expect(svg).toContain('fill="#ffffff"');
    });

    it('reads the same in SVG and PNG: one code, two drawings', async () => {
      const svg = svgText(await api(`/api/v1/links/${link.id}/qr?margin=0`));
      const png = decode(await api(`/api/v1/links/${link.id}/qr?format=png&margin=0`));
      expect(png.text).toBe(link.short_url);
      // The SVG's viewBox counts the modules: a version 3 code (29) for a short URL of this length, or close.
      const modules = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
      expect(modules).toBeGreaterThanOrEqual(21);
      expect((modules - 17) % 4).toBe(0);
    });

    it.each([
      ['format=gif', 'format', 'The selected format is invalid.'],
      ['size=63', 'size', 'The size field must be at least 64.'],
      ['size=2049', 'size', 'The size field must not be greater than 2048.'],
      ['size=big', 'size', 'The size field must be an integer.'],
      ['color=red', 'color', 'The color field must be a colour of six hexadecimal digits, as 1a2b3c.'],
      [
        'background=12345',
        'background',
        'The background field must be a colour of six hexadecimal digits, as 1a2b3c.',
      ],
      ['margin=17', 'margin', 'The margin field must not be greater than 16.'],
    ])('refuses %s with a 422 naming the field', async (query, field, message) => {
      const response = await t
        .http()
        .get(`/api/v1/links/${link.id}/qr?${query}`)
        .set('Authorization', owner.auth);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: { [field]: [message] }, status: 422 });
    });

    it('is a 404 for another account’s link and for a link that does not exist', async () => {
      for (const [path, account] of [
        [`/api/v1/links/${link.id}/qr`, other],
        ['/api/v1/links/2147483647/qr', owner],
      ] as const) {
        const response = await t.http().get(path).set('Authorization', account.auth);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(NOT_FOUND);
      }
    });

    it('needs a key', async () => {
      const response = await t.http().get(`/api/v1/links/${link.id}/qr`);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthenticated.', status: 401 });
    });
  });

  describe('GET /{alias}/qr', () => {
    it('answers anyone with the code of the short URL', async () => {
      const response = await t.http().get(`/${link.alias}/qr?format=png`).buffer(true).parse(binary);
      expect(response.status).toBe(200);
      expect(decode(response).text).toBe(link.short_url);
    });

    it('finds the alias regardless of case, and encodes the link’s own spelling', async () => {
      const response = await t
        .http()
        .get(`/${link.alias.toUpperCase()}/qr?format=png`)
        .buffer(true)
        .parse(binary);
      expect(decode(response).text).toBe(link.short_url);
    });

    it('is the visitor’s 404 page for an unknown alias and for a disabled link', async () => {
      const disabled = await createLink(t, owner, { url: 'https://example.com/off', disabled: '1' });
      for (const alias of ['no-such-alias-here', disabled.alias]) {
        const response = await t.http().get(`/${alias}/qr`);
        expect(response.status).toBe(404);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
      }
    });

    it('refuses a size out of bounds with a 422 naming the field', async () => {
      const response = await t.http().get(`/${link.alias}/qr?size=5`);
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        message: { size: ['The size field must be at least 64.'] },
        status: 422,
      });
    });

    it('draws at most 1024 pixels for anyone: a larger size is a 422 naming the field', async () => {
      const largest = await t.http().get(`/${link.alias}/qr?format=png&size=1024`).buffer(true).parse(binary);
      expect(largest.status).toBe(200);
      const { text, png } = decode(largest);
      expect(text).toBe(link.short_url);
      expect([png.width, png.height]).toEqual([1024, 1024]);
      for (const size of ['1025', '2048']) {
        for (const format of ['png', 'svg']) {
          const response = await t.http().get(`/${link.alias}/qr?format=${format}&size=${size}`);
          expect(response.status).toBe(422);
          expect(response.body).toEqual({
            message: { size: ['The size field must not be greater than 1024.'] },
            status: 422,
          });
        }
      }
    });

    it('shows a browser the refusal as a page in its language, naming the parameter', async () => {
      const response = await t
        .http()
        .get(`/${link.alias}/qr?size=5000&color=red`)
        .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
        .set('Accept-Language', 'de-DE,de;q=0.9');
      const html = expectPage(response, { status: 422, title: 'QR-Code nicht verfügbar', lang: 'de' });
      expect(html).toContain('<code>size</code>');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    });

    it('answers JSON to a client that does not ask for HTML', async () => {
      for (const accept of ['*/*', 'application/json', 'image/png,image/*;q=0.8']) {
        const response = await t.http().get(`/${link.alias}/qr?margin=99`).set('Accept', accept);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          message: { margin: ['The margin field must not be greater than 16.'] },
          status: 422,
        });
      }
    });

    it('answers the same bytes again for the same code', async () => {
      for (const query of ['format=png&size=512&color=123456', 'size=300&background=eeeeee']) {
        const first = await t.http().get(`/${link.alias}/qr?${query}`).buffer(true).parse(binary);
        const again = await t.http().get(`/${link.alias}/qr?${query}`).buffer(true).parse(binary);
        expect(first.status).toBe(200);
        expect(Buffer.compare(first.body as Buffer, again.body as Buffer)).toBe(0);
        expect(again.headers['content-type']).toBe(first.headers['content-type']);
      }
    });

    it('never serves the code of a link whose alias changed', async () => {
      const moving = await createLink(t, owner, { url: 'https://example.com/moving' });
      const query = 'format=png&size=256&color=0a0b0c';
      const before = await t.http().get(`/${moving.alias}/qr?${query}`).buffer(true).parse(binary);
      expect(decode(before).text).toBe(moving.short_url);
      const byKeyBefore = decode(await api(`/api/v1/links/${moving.id}/qr?${query}`));
      expect(byKeyBefore.text).toBe(moving.short_url);

      const renamed = `${moving.alias}-moved`;
      const update = await t
        .http()
        .put(`/api/v1/links/${moving.id}`)
        .set('Authorization', owner.auth)
        .type('json')
        .send({ alias: renamed });
      expect(update.status).toBe(200);
      const shortUrl = (update.body as { data: LinkData }).data.short_url;
      expect(shortUrl).toBe(moving.short_url.replace(/[^/]+$/, renamed));

      expect(decode(await api(`/api/v1/links/${moving.id}/qr?${query}`)).text).toBe(shortUrl);
      const after = await t.http().get(`/${renamed}/qr?${query}`).buffer(true).parse(binary);
      expect(decode(after).text).toBe(shortUrl);
      const old = await t.http().get(`/${moving.alias}/qr?${query}`);
      expect(old.status).toBe(404);
    });

    it('is the code of the domain the link is on, not of the host it was asked on', async () => {
      const domain = await t
        .http()
        .post('/api/v1/domains')
        .set('Authorization', owner.auth)
        .type('json')
        .send({ name: `qr-${Date.now()}.example` });
      expect(domain.status).toBe(201);
      const { id: domainId, name } = (domain.body as { data: { id: number; name: string } }).data;
      const onDomain = await createLink(t, owner, {
        url: 'https://example.com/d',
        domain_id: domainId,
        alias: link.alias,
      });
      const query = 'format=png&size=200';
      const own = await t
        .http()
        .get(`/${link.alias}/qr?${query}`)
        .set('Host', name)
        .buffer(true)
        .parse(binary);
      expect(decode(own).text).toBe(onDomain.short_url);
      const fallback = await t.http().get(`/${link.alias}/qr?${query}`).buffer(true).parse(binary);
      expect(decode(fallback).text).toBe(link.short_url);
    });
  });
});

/** Collects a binary answer into a Buffer (supertest parses only text types by itself). */
function binary(response: Response, done: (error: Error | null, body: unknown) => void): void {
  const stream = response as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}
