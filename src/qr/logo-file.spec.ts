import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { ValidationFailedException } from '../common/exceptions';
import { checkedLogo, decodePngLogo, LOGO_MAX_BYTES } from './logo-file';

function pngOf(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(0x80);
  return PNG.sync.write(png);
}

/** The 422's reasons, by field, for what `check` refuses. */
function refusal(check: () => unknown): Record<string, string[]> {
  try {
    check();
  } catch (error) {
    if (error instanceof ValidationFailedException) return error.fields;
    throw error;
  }
  throw new Error('not refused');
}

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
);

describe('checkedLogo', () => {
  it('keeps a PNG that decodes, with its SHA-256', () => {
    const bytes = pngOf(40, 20);
    const logo = checkedLogo(bytes, 'image/png');
    expect(logo).toEqual({
      contentType: 'image/png',
      bytes,
      digest: createHash('sha256').update(bytes).digest('hex'),
    });
    const pixels = decodePngLogo(logo.bytes);
    expect([pixels.width, pixels.height, pixels.data.length]).toEqual([40, 20, 40 * 20 * 4]);
  });

  it('keeps a safe SVG', () => {
    expect(checkedLogo(SVG, 'image/svg+xml').contentType).toBe('image/svg+xml');
  });

  it.each([
    [
      'no body',
      undefined,
      'image/png',
      'The logo field is required: send the image as the body, as image/png or image/svg+xml.',
    ],
    [
      'an empty body',
      Buffer.alloc(0),
      'image/png',
      'The logo field is required: send the image as the body, as image/png or image/svg+xml.',
    ],
    ['another type', Buffer.from('GIF89a'), 'image/gif', 'The logo must be image/png or image/svg+xml.'],
    [
      'more than 64 KB',
      Buffer.alloc(LOGO_MAX_BYTES + 1, 1),
      'image/png',
      'The logo must not be greater than 64 kilobytes.',
    ],
    [
      'a JPEG sent as PNG',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
      'image/png',
      'The logo must be a PNG file: it does not start with the PNG signature.',
    ],
    [
      'an SVG sent as PNG',
      SVG,
      'image/png',
      'The logo must be a PNG file: it does not start with the PNG signature.',
    ],
    [
      'a PNG cut short',
      pngOf(40, 20).subarray(0, 60),
      'image/png',
      'The logo must be a PNG file: its pixels cannot be decoded.',
    ],
    [
      'a PNG of 1025 pixels across',
      pngOf(1025, 1),
      'image/png',
      'The logo must not be larger than 1024 by 1024 pixels.',
    ],
    ['a PNG sent as SVG', pngOf(4, 4), 'image/svg+xml', 'The logo must be an SVG document in UTF-8.'],
    [
      'text sent as SVG',
      Buffer.from('hello'),
      'image/svg+xml',
      'The logo must be a well-formed SVG document whose root is an svg element.',
    ],
    [
      'an SVG with a script',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'image/svg+xml',
      'The logo must not hold scripts, event handlers, animations, foreign objects or references outside itself.',
    ],
  ])('refuses %s with a 422 on logo', (_name, body, type, reason) => {
    expect(refusal(() => checkedLogo(body, type))).toEqual({ logo: [reason] });
  });

  it('reads a PNG header’s size before inflating anything: 64 KB that claim a huge image are refused at once', () => {
    const bytes = pngOf(8, 8);
    // The header says 100,000 by 100,000: 40 GB of pixels, were they inflated.
    bytes.writeUInt32BE(100_000, 16);
    bytes.writeUInt32BE(100_000, 20);
    expect(refusal(() => checkedLogo(bytes, 'image/png'))).toEqual({
      logo: ['The logo must not be larger than 1024 by 1024 pixels.'],
    });
  });
});
