import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Response } from 'supertest';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { invalid, NOT_FOUND, UNAUTHENTICATED } from './support/contract';
import { createLink, expectPage, unique, type LinkData } from './support/visitors';

/*
 * QR design (contract §14): colours in contrast, the quiet zone, the error correction level, rounded modules, and a
 * logo uploaded for a link or for the workspace. Every code that can be decoded is decoded, as a phone's camera
 * would, back to the link's short URL.
 */

const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };
const PAYLOAD_TOO_LARGE = { message: 'Payload too large.', status: 413 };
const UNSUPPORTED = { message: 'Unsupported media type.', status: 415 };
const CONTRAST = (field: string, ratio: string) =>
  `The ${field} field must contrast with the background by at least 4.5 to 1 for the code to scan; these colours ` +
  `are ${ratio} to 1.`;
const NO_LOGO =
  'There is no logo to draw: upload one for the link or for the workspace first, or leave logo out.';
const SVG_LOGO_IN_PNG = 'An SVG logo is drawn in SVG codes only: ask for format=svg, or upload a PNG logo.';
const LOGO_ECC = 'The ecc field must be Q or H with a logo: the logo hides part of the code.';
const UNSAFE_SVG =
  'The logo must not hold scripts, event handlers, animations, foreign objects or references outside itself.';

/** A PNG of `width` by `height`: a disc of `rgb` on a transparent ground. */
function discPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  const radius = Math.min(width, height) / 2;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const inside = (x + 0.5 - width / 2) ** 2 + (y + 0.5 - height / 2) ** 2 <= radius ** 2;
      png.data.set(inside ? [...rgb, 255] : [0, 0, 0, 0], (y * width + x) * 4);
    }
  }
  return PNG.sync.write(png);
}

const RED_LOGO = discPng(120, 80, [220, 30, 40]);
const BLUE_LOGO = discPng(64, 64, [20, 60, 200]);
const SVG_LOGO = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' +
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#0a0"/></linearGradient></defs>' +
    '<circle cx="5" cy="5" r="5" fill="url(#g)"/></svg>',
);

/** Collects an answer: JSON (a refusal) parsed, anything else (an image) as a Buffer of its bytes. */
function binary(response: Response, done: (error: Error | null, body: unknown) => void): void {
  const stream = response as unknown as NodeJS.ReadableStream & { headers: Record<string, string> };
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => {
    const bytes = Buffer.concat(chunks);
    const json = String(stream.headers['content-type']).startsWith('application/json');
    done(null, json ? (JSON.parse(bytes.toString('utf8')) as unknown) : bytes);
  });
}

/** What a phone's camera would read: the text of the QR code in a PNG answer, and its pixels. */
function decode(response: Response): { text: string | null; png: PNG } {
  expect(`${response.status} ${String(response.headers['content-type'])}`).toBe('200 image/png');
  const png = PNG.sync.read(response.body as Buffer);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { text: code?.data ?? null, png };
}

function svgText(response: Response): string {
  expect(`${response.status} ${String(response.headers['content-type'])}`).toBe(
    '200 image/svg+xml; charset=utf-8',
  );
  return (response.body as Buffer).toString('utf8');
}

/** The modules across an SVG code, quiet zone included: its viewBox. */
function modulesAcross(svg: string): number {
  return Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
}

/** Every distinct colour of a PNG, as six hex digits. */
function colours(png: PNG): Set<string> {
  const seen = new Set<string>();
  for (let offset = 0; offset < png.data.length; offset += 4) {
    seen.add([0, 1, 2].map((channel) => png.data[offset + channel].toString(16).padStart(2, '0')).join(''));
  }
  return seen;
}

/** The colour of the pixel in the middle of a PNG, as six hex digits. */
function middleColour(png: PNG): string {
  const at = (Math.floor(png.height / 2) * png.width + Math.floor(png.width / 2)) * 4;
  return [0, 1, 2].map((channel) => png.data[at + channel].toString(16).padStart(2, '0')).join('');
}

describe('QR design', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  let link: LinkData;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    owner = await createAccount(t);
    other = await createAccount(t);
    link = await createLink(t, owner, { url: 'https://example.com/designed' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A code through the API, as the key of `account`, read whole whatever its type. */
  const code = (query: string, id = link.id, account: TestAccount = owner) =>
    t
      .http()
      .get(`/api/v1/links/${id}/qr?${query}`)
      .set('Authorization', account.auth)
      .buffer(true)
      .parse(binary);

  /** A code as anyone asks for it. */
  const publicCode = (query: string, alias = link.alias) =>
    t.http().get(`/${alias}/qr?${query}`).buffer(true).parse(binary);

  /** Uploads `body` as the logo of the link (or, with `id` null, of the workspace). */
  const putLogo = (account: TestAccount, id: number | null, body: Buffer | string, type: string) =>
    t
      .http()
      .put(id === null ? '/api/v1/account/qr-logo' : `/api/v1/links/${id}/qr-logo`)
      .set('Authorization', account.auth)
      .set('Content-Type', type)
      .send(body);

  const deleteLogo = (account: TestAccount, id: number | null) =>
    t
      .http()
      .delete(id === null ? '/api/v1/account/qr-logo' : `/api/v1/links/${id}/qr-logo`)
      .set('Authorization', account.auth);

  /** A key of the owner's account with these scopes, and these spaces only when given. */
  async function keyOf(scopes: string[], spaceIds?: number[]): Promise<TestAccount> {
    const response = await t
      .http()
      .post('/api/v1/keys')
      .set('Authorization', owner.auth)
      .type('json')
      .send({ name: unique('qr-key'), scopes, ...(spaceIds === undefined ? {} : { space_ids: spaceIds }) });
    expect(response.status).toBe(201);
    const apiKey = (response.body as { data: { key: string } }).data.key;
    return { ...owner, apiKey, auth: `Bearer ${apiKey}` };
  }

  describe('colours, quiet zone, error correction and style', () => {
    it('answers the code of every release before when no new parameter is given, the defaults spelled out too', async () => {
      for (const format of ['svg', 'png']) {
        const plain = await code(`format=${format}`);
        const spelled = await code(
          `format=${format}&fg=%23000000&bg=%23ffffff&margin=4&ecc=M&style=square&logo=0`,
        );
        const older = await code(`format=${format}&color=000000&background=ffffff`);
        expect(plain.status).toBe(200);
        expect(Buffer.compare(plain.body as Buffer, spelled.body as Buffer)).toBe(0);
        expect(Buffer.compare(plain.body as Buffer, older.body as Buffer)).toBe(0);
      }
      // SVG: the qrcode package's document, as it always was.
      const svg = svgText(await code('size=128&fg=%2300ff00&bg=%23000000'));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="128" height="128" /);
      expect(svg).toContain('shape-rendering="crispEdges"');
      expect(svg).toContain('<path fill="#000000" d="M0 0h');
      expect(svg).toContain('<path stroke="#00ff00" d="M');
    });

    it('draws in fg and bg, `#` given or not, and they win over the older names', async () => {
      const { text, png } = decode(
        await code('format=png&fg=%231A2B3C&bg=FAFAFA&color=ff0000&background=000000'),
      );
      expect(text).toBe(link.short_url);
      expect([...colours(png)].sort()).toEqual(['1a2b3c', 'fafafa']);
    });

    it('makes the quiet zone as many modules as margin says, 0 to 16', async () => {
      const across = await Promise.all(
        [0, 1, 4, 16].map(async (margin) => modulesAcross(svgText(await code(`margin=${margin}`)))),
      );
      const modules = across[0];
      expect(across).toEqual([modules, modules + 2, modules + 8, modules + 32]);
      for (const margin of [0, 16]) {
        const { text, png } = decode(await code(`format=png&size=600&margin=${margin}`));
        expect(text).toBe(link.short_url);
        // The top-left finder's middle row is dark from its first module: its first dark pixel ends the quiet zone.
        const scale = 600 / (modules + margin * 2);
        const row = Math.floor((margin + 3.5) * scale) * png.width;
        let first = 0;
        while (png.data[(row + first) * 4] !== 0) first += 1;
        expect(Math.floor(first / scale)).toBe(margin);
      }
    });

    it('encodes at the level ecc asks: more correction, more modules, each read back', async () => {
      const across: number[] = [];
      for (const ecc of ['L', 'M', 'Q', 'H']) {
        across.push(modulesAcross(svgText(await code(`ecc=${ecc}&margin=0`))));
        expect(decode(await code(`format=png&ecc=${ecc}`)).text).toBe(link.short_url);
      }
      expect([...across].sort((a, b) => a - b)).toEqual(across);
      expect(across[3]).toBeGreaterThan(across[0]);
    });

    it('rounds the modules with style=rounded: arcs in SVG, dots in PNG, read back all the same', async () => {
      const svg = svgText(await code('style=rounded&fg=%23003366'));
      expect(svg).not.toContain('shape-rendering');
      expect(svg).toMatch(/<path fill="#003366" d="M[^"]*a\.5 \.5 0 0 1 /);
      const square = decode(await code('format=png&size=512'));
      const rounded = decode(await code('format=png&size=512&style=rounded'));
      expect(rounded.text).toBe(link.short_url);
      expect(Buffer.compare(square.png.data, rounded.png.data)).not.toBe(0);
    });

    it.each([
      'fg=%23000000&bg=%23ffffff&margin=4&ecc=M&style=square',
      'fg=%231a2b3c&bg=%23fafafa&margin=0&ecc=L&style=rounded',
      'fg=%23ffffff&bg=%23202020&margin=2&ecc=Q&style=square',
      'fg=%23003300&bg=%23ffee88&margin=16&ecc=H&style=rounded&size=1024',
      'fg=%23550000&bg=%23f0f0ff&margin=1&ecc=H&style=square&size=64',
    ])('reads back as the short URL through the API and on the public route: %s', async (query) => {
      const decoded = (response: Response) => {
        const png = PNG.sync.read(response.body as Buffer);
        // Light on dark: a reader that tries the inverted image too, as phones do.
        const options = { inversionAttempts: 'attemptBoth' as const };
        return jsQR(new Uint8ClampedArray(png.data), png.width, png.height, options)?.data ?? null;
      };
      const byKey = await code(`format=png&${query}`);
      expect(byKey.status).toBe(200);
      expect(decoded(byKey)).toBe(link.short_url);
      const byAnyone = await publicCode(`format=png&${query}`);
      expect(byAnyone.status).toBe(200);
      expect(decoded(byAnyone)).toBe(link.short_url);
    });

    it.each([
      ['fg=%23777777', invalid('fg', CONTRAST('fg', '4.47'))],
      ['fg=%23000000&bg=%23000000', invalid('fg', CONTRAST('fg', '1.00'))],
      // A background alone, too dark for the default black: refused on fg, the pair's field.
      ['bg=%23333333', invalid('fg', CONTRAST('fg', '1.66'))],
      ['color=aaaaaa&bg=%23ffffff', invalid('fg', CONTRAST('fg', '2.32'))],
      ['fg=red', invalid('fg', 'The fg field must be a colour of six hexadecimal digits, as #1a2b3c.')],
      ['fg=%23abc', invalid('fg', 'The fg field must be a colour of six hexadecimal digits, as #1a2b3c.')],
      ['bg=%2312345g', invalid('bg', 'The bg field must be a colour of six hexadecimal digits, as #fafafa.')],
      ['margin=-1', invalid('margin', 'The margin field must be at least 0.')],
      ['margin=17', invalid('margin', 'The margin field must not be greater than 16.')],
      ['margin=wide', invalid('margin', 'The margin field must be an integer.')],
      ['ecc=X', invalid('ecc', 'The selected ecc is invalid.')],
      ['ecc=high', invalid('ecc', 'The selected ecc is invalid.')],
      ['style=dots', invalid('style', 'The selected style is invalid.')],
      ['logo=yes', invalid('logo', 'The logo field must be true or false.')],
      ['logo=1&ecc=M', invalid('ecc', LOGO_ECC)],
      ['logo=1&ecc=L', invalid('ecc', LOGO_ECC)],
    ])(
      'refuses %s with a 422 naming the field, through the API and on the public route',
      async (query, body) => {
        const byKey = await t
          .http()
          .get(`/api/v1/links/${link.id}/qr?${query}`)
          .set('Authorization', owner.auth);
        expect([byKey.status, byKey.body]).toEqual([422, body]);
        const byAnyone = await t.http().get(`/${link.alias}/qr?${query}`);
        expect([byAnyone.status, byAnyone.body]).toEqual([422, body]);
      },
    );
  });

  describe('logos', () => {
    it('draws the link’s PNG logo in the middle with logo=1, at H by default, still read back', async () => {
      const linked = await createLink(t, owner, { url: 'https://example.com/with-logo' });
      const put = await putLogo(owner, linked.id, RED_LOGO, 'image/png');
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        data: {
          content_type: 'image/png',
          bytes: RED_LOGO.length,
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          updated_at: expect.any(String),
        },
        status: 200,
      });

      for (const query of [
        '',
        '&style=rounded',
        '&ecc=Q&margin=1&fg=%23102030&bg=%23fffff0',
        '&size=1024&ecc=H',
      ]) {
        const { text, png } = decode(await code(`format=png&logo=1${query}`, linked.id));
        expect(text).toBe(linked.short_url);
        expect(middleColour(png)).toBe('dc1e28');
      }
      // By default a code with a logo is at H: denser than the same code at M.
      const withLogo = modulesAcross(svgText(await code('logo=1&margin=0', linked.id)));
      const atH = modulesAcross(svgText(await code('ecc=H&margin=0', linked.id)));
      const atM = modulesAcross(svgText(await code('margin=0', linked.id)));
      expect([withLogo, withLogo > atM]).toEqual([atH, true]);

      // SVG embeds the very file, as an image, never inline.
      const svg = svgText(await code('logo=1', linked.id));
      expect(svg).toContain(`xlink:href="data:image/png;base64,${RED_LOGO.toString('base64')}"/>`);
      expect(svg).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');

      // Anyone asking for the code sees the logo too.
      const { text, png } = decode(await publicCode('format=png&logo=1', linked.alias));
      expect(text).toBe(linked.short_url);
      expect(middleColour(png)).toBe('dc1e28');
    });

    it('draws the workspace’s logo for links without one, the link’s own first, and neither once removed', async () => {
      const account = await createAccount(t);
      const first = await createLink(t, account, { url: 'https://example.com/first' });
      const second = await createLink(t, account, { url: 'https://example.com/second' });
      const logoOf = async (target: LinkData) => {
        const response = await t
          .http()
          .get(`/api/v1/links/${target.id}/qr?format=png&logo=1`)
          .set('Authorization', account.auth)
          .buffer(true)
          .parse(binary);
        if (response.status !== 200) return response.body as unknown;
        const { text, png } = decode(response);
        expect(text).toBe(target.short_url);
        return middleColour(png);
      };

      expect(await logoOf(first)).toEqual(invalid('logo', NO_LOGO));
      expect((await putLogo(account, null, BLUE_LOGO, 'image/png')).status).toBe(200);
      expect((await putLogo(account, first.id, RED_LOGO, 'image/png')).status).toBe(200);
      expect([await logoOf(first), await logoOf(second)]).toEqual(['dc1e28', '143cc8']);

      // Another account's workspace logo is never drawn here, nor this one there.
      const outsider = await createLink(t, other, { url: 'https://example.com/outsider' });
      const outside = await code('format=png&logo=1', outsider.id, other);
      expect([outside.status, outside.body]).toEqual([422, invalid('logo', NO_LOGO)]);

      const removed = await deleteLogo(account, first.id);
      expect(removed.body).toEqual({ id: first.id, object: 'qr_logo', deleted: true, status: 200 });
      expect(await logoOf(first)).toBe('143cc8');
      const workspaceRemoved = await deleteLogo(account, null);
      expect(workspaceRemoved.body).toEqual({
        id: account.id,
        object: 'qr_logo',
        deleted: true,
        status: 200,
      });
      expect([await logoOf(first), await logoOf(second)]).toEqual([
        invalid('logo', NO_LOGO),
        invalid('logo', NO_LOGO),
      ]);
      // Removing what is not there answers the same.
      expect((await deleteLogo(account, first.id)).status).toBe(200);
      expect((await deleteLogo(account, null)).status).toBe(200);
    });

    it('draws a new logo as soon as it replaces the old one: the cache knows logos by their bytes', async () => {
      const changing = await createLink(t, owner, { url: 'https://example.com/changing' });
      await putLogo(owner, changing.id, RED_LOGO, 'image/png');
      expect(middleColour(decode(await code('format=png&logo=1', changing.id)).png)).toBe('dc1e28');
      await putLogo(owner, changing.id, BLUE_LOGO, 'image/png');
      expect(middleColour(decode(await code('format=png&logo=1', changing.id)).png)).toBe('143cc8');
      expect(middleColour(decode(await publicCode('format=png&logo=1', changing.alias)).png)).toBe('143cc8');
    });

    it('embeds an SVG logo in SVG codes, and refuses a PNG code with it (422 on logo)', async () => {
      const vector = await createLink(t, owner, { url: 'https://example.com/vector' });
      const put = await putLogo(owner, vector.id, SVG_LOGO, 'image/svg+xml');
      expect([put.status, (put.body as { data: { content_type: string } }).data.content_type]).toEqual([
        200,
        'image/svg+xml',
      ]);
      const svg = svgText(await code('logo=1&style=rounded', vector.id));
      expect(svg).toContain(`xlink:href="data:image/svg+xml;base64,${SVG_LOGO.toString('base64')}"/>`);
      // A hand-written logo that names no namespace is kept named, or an image renderer would draw nothing.
      await putLogo(
        owner,
        vector.id,
        '<svg viewBox="0 0 2 2"><rect width="2" height="2"/></svg>',
        'image/svg+xml',
      );
      const named = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2"/></svg>',
      );
      expect(svgText(await code('logo=1', vector.id))).toContain(named.toString('base64'));
      const png = await t
        .http()
        .get(`/api/v1/links/${vector.id}/qr?format=png&logo=1`)
        .set('Authorization', owner.auth);
      expect([png.status, png.body]).toEqual([422, invalid('logo', SVG_LOGO_IN_PNG)]);
      const publicPng = await t.http().get(`/${vector.alias}/qr?format=png&logo=1`);
      expect([publicPng.status, publicPng.body]).toEqual([422, invalid('logo', SVG_LOGO_IN_PNG)]);
      // A person opening the address is shown the refusal as a page, naming the parameter.
      const page = await t
        .http()
        .get(`/${vector.alias}/qr?format=png&logo=1`)
        .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect(expectPage(page, { status: 422, title: 'QR code unavailable' })).toContain('<code>logo</code>');
    });

    it('is gone with its link', async () => {
      const doomed = await createLink(t, owner, { url: 'https://example.com/doomed' });
      await putLogo(owner, doomed.id, RED_LOGO, 'image/png');
      const count = async () => {
        const rows = await t.dataSource.query<{ n: string }[]>(
          'SELECT count(*) AS n FROM link_qr_logos WHERE link_id = $1',
          [doomed.id],
        );
        return Number(rows[0].n);
      };
      expect(await count()).toBe(1);
      expect(
        (await t.http().delete(`/api/v1/links/${doomed.id}`).set('Authorization', owner.auth)).status,
      ).toBe(200);
      expect(await count()).toBe(0);
    });

    it.each([
      [
        'a JPEG sent as PNG',
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]),
        'image/png',
        'The logo must be a PNG file: it does not start with the PNG signature.',
      ],
      [
        'a PNG cut short',
        RED_LOGO.subarray(0, 80),
        'image/png',
        'The logo must be a PNG file: its pixels cannot be decoded.',
      ],
      [
        'a PNG of 1025 pixels across',
        discPng(1025, 2, [0, 0, 0]),
        'image/png',
        'The logo must not be larger than 1024 by 1024 pixels.',
      ],
      [
        'text sent as SVG',
        'just text',
        'image/svg+xml',
        'The logo must be a well-formed SVG document whose root is an svg element.',
      ],
      [
        'an svg element in the XHTML namespace',
        '<svg xmlns="http://www.w3.org/1999/xhtml" viewBox="0 0 1 1"/>',
        'image/svg+xml',
        'The logo must be a well-formed SVG document whose root is an svg element.',
      ],
      [
        'an SVG with a script',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
        'image/svg+xml',
        UNSAFE_SVG,
      ],
      [
        'an SVG with an event handler',
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
        'image/svg+xml',
        UNSAFE_SVG,
      ],
      [
        'an SVG with an external reference',
        '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/p.png"/></svg>',
        'image/svg+xml',
        UNSAFE_SVG,
      ],
      [
        'an SVG with a javascript: link',
        '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
        'image/svg+xml',
        UNSAFE_SVG,
      ],
      [
        'an SVG with a foreign object',
        '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject></svg>',
        'image/svg+xml',
        UNSAFE_SVG,
      ],
    ])('refuses %s with a 422 on logo, and keeps the logo it had', async (_name, body, type, reason) => {
      const kept = await createLink(t, owner, { url: 'https://example.com/kept' });
      await putLogo(owner, kept.id, RED_LOGO, 'image/png');
      const response = await putLogo(owner, kept.id, body, type);
      expect([response.status, response.body]).toEqual([422, invalid('logo', reason)]);
      expect(middleColour(decode(await code('format=png&logo=1', kept.id)).png)).toBe('dc1e28');
      const workspace = await putLogo(owner, null, body, type);
      expect([workspace.status, workspace.body]).toEqual([422, invalid('logo', reason)]);
    });

    it('refuses an empty body (422), a body past 64 KB (413) and any other type (415)', async () => {
      const empty = await t
        .http()
        .put(`/api/v1/links/${link.id}/qr-logo`)
        .set('Authorization', owner.auth)
        .set('Content-Type', 'image/png');
      expect([empty.status, empty.body]).toEqual([
        422,
        invalid(
          'logo',
          'The logo field is required: send the image as the body, as image/png or image/svg+xml.',
        ),
      ]);

      // 64 KB exactly is taken as far as size goes (and refused for what it holds); one byte more is not read.
      const padded = Buffer.concat([
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'),
        Buffer.alloc(64 * 1024),
      ]);
      const atLimit = await putLogo(owner, link.id, padded.subarray(0, 64 * 1024), 'image/svg+xml');
      expect(atLimit.status).toBe(422);
      for (const id of [link.id, null]) {
        const past = await putLogo(owner, id, padded.subarray(0, 64 * 1024 + 1), 'image/svg+xml');
        expect([past.status, past.body]).toEqual([413, PAYLOAD_TOO_LARGE]);
      }
      const bigPng = Buffer.concat([RED_LOGO, Buffer.alloc(64 * 1024)]);
      expect((await putLogo(owner, link.id, bigPng, 'image/png')).body).toEqual(PAYLOAD_TOO_LARGE);

      for (const type of ['image/gif', 'application/json', 'text/plain']) {
        const response = await putLogo(owner, link.id, type === 'application/json' ? '{}' : 'GIF89a', type);
        expect([response.status, response.body]).toEqual([415, UNSUPPORTED]);
      }
      // An SVG may say its charset.
      const withCharset = await putLogo(owner, link.id, SVG_LOGO, 'image/svg+xml; charset=utf-8');
      expect(withCharset.status).toBe(200);
      await deleteLogo(owner, link.id);
    });
  });

  describe('who may', () => {
    it('answers 404 for another account’s link, on every logo route and on logo=1, and changes nothing', async () => {
      const theirs = await createLink(t, other, { url: 'https://example.com/theirs' });
      await putLogo(other, theirs.id, BLUE_LOGO, 'image/png');
      for (const response of [
        await putLogo(owner, theirs.id, RED_LOGO, 'image/png'),
        await deleteLogo(owner, theirs.id),
        await t.http().get(`/api/v1/links/${theirs.id}/qr?logo=1`).set('Authorization', owner.auth),
        await putLogo(owner, 2147483647, RED_LOGO, 'image/png'),
        await deleteLogo(owner, 2147483647),
      ]) {
        expect([response.status, response.body]).toEqual([404, NOT_FOUND]);
      }
      expect(middleColour(decode(await code('format=png&logo=1', theirs.id, other)).png)).toBe('143cc8');
    });

    it('needs links.write to change a logo (403) and links.read to draw one; a key to do either (401)', async () => {
      const reader = await keyOf(['links.read']);
      const mine = await createLink(t, owner, { url: 'https://example.com/scoped' });
      for (const response of [
        await putLogo(reader, mine.id, RED_LOGO, 'image/png'),
        await deleteLogo(reader, mine.id),
        await putLogo(reader, null, RED_LOGO, 'image/png'),
        await deleteLogo(reader, null),
      ]) {
        expect([response.status, response.body]).toEqual([403, UNAUTHORIZED]);
      }
      const writer = await keyOf(['links.write']);
      expect((await putLogo(writer, mine.id, RED_LOGO, 'image/png')).status).toBe(200);
      expect(decode(await code('format=png&logo=1', mine.id, reader)).text).toBe(mine.short_url);
      const statsOnly = await keyOf(['stats.read']);
      const refused = await t
        .http()
        .get(`/api/v1/links/${mine.id}/qr?logo=1`)
        .set('Authorization', statsOnly.auth);
      expect([refused.status, refused.body]).toEqual([403, UNAUTHORIZED]);

      for (const response of [
        await t
          .http()
          .put(`/api/v1/links/${mine.id}/qr-logo`)
          .set('Content-Type', 'image/png')
          .send(RED_LOGO),
        await t.http().delete(`/api/v1/links/${mine.id}/qr-logo`),
        await t.http().put('/api/v1/account/qr-logo').set('Content-Type', 'image/png').send(RED_LOGO),
        await t.http().delete('/api/v1/account/qr-logo'),
      ]) {
        expect([response.status, response.body]).toEqual([401, UNAUTHENTICATED]);
      }
    });

    it('lets a key restricted to spaces change the logos of its links only, and never the workspace’s', async () => {
      const space = await t
        .http()
        .post('/api/v1/spaces')
        .set('Authorization', owner.auth)
        .type('json')
        .send({ name: unique('qr-space') });
      const spaceId = (space.body as { data: { id: number } }).data.id;
      const inside = await createLink(t, owner, { url: 'https://example.com/inside', space_id: spaceId });
      const outside = await createLink(t, owner, { url: 'https://example.com/outside' });
      const restricted = await keyOf(['links.write'], [spaceId]);

      expect((await putLogo(restricted, inside.id, RED_LOGO, 'image/png')).status).toBe(200);
      expect((await deleteLogo(restricted, inside.id)).status).toBe(200);
      for (const response of [
        await putLogo(restricted, outside.id, RED_LOGO, 'image/png'),
        await deleteLogo(restricted, outside.id),
        await t.http().get(`/api/v1/links/${outside.id}/qr?logo=1`).set('Authorization', restricted.auth),
      ]) {
        expect([response.status, response.body]).toEqual([404, NOT_FOUND]);
      }
      for (const response of [
        await putLogo(restricted, null, RED_LOGO, 'image/png'),
        await deleteLogo(restricted, null),
      ]) {
        expect([response.status, response.body]).toEqual([403, UNAUTHORIZED]);
      }
    });
  });
});
