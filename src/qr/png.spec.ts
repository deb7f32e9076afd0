import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { create, toBuffer } from 'qrcode';
import { logoBox } from './logo-area';
import { withoutBox } from './modules';
import { qrPng, type PngDrawing, type RgbaImage } from './png';

const TEXT = 'https://sho.rt/Ab3_x-9';

/**
 * pngjs options (passed on by `qrcode`, which types only some) that change no pixel: one filter and fast
 * compression. By default pngjs tries all five filters on every row: 94 s for the 16 MB of the 2048-pixel image on
 * a loaded machine, against 7 s.
 */
const FAST_PNG = { filterType: 0, deflateLevel: 1 };

/** The RGBA pixels of the `qrcode` package's own PNG of the same drawing: the reference. */
async function reference(drawing: PngDrawing): Promise<PNG> {
  const buffer = await toBuffer(TEXT, {
    type: 'png',
    errorCorrectionLevel: 'M',
    width: drawing.width,
    margin: drawing.margin,
    color: { dark: `#${drawing.dark}ff`, light: `#${drawing.light}ff` },
    rendererOpts: FAST_PNG,
  });
  return PNG.sync.read(buffer);
}

describe('qrPng', () => {
  const modules = create(TEXT, { errorCorrectionLevel: 'M' }).modules;

  it.each([
    { width: 256, margin: 4, dark: '000000', light: 'ffffff' },
    { width: 300, margin: 0, dark: '1a2b3c', light: 'fafafa' },
    { width: 1024, margin: 16, dark: 'ff0000', light: '00ff00' },
    // Smaller than a pixel a module: drawn at 4 pixels a module, as the package does.
    { width: 64, margin: 16, dark: '000000', light: 'ffffff' },
    { width: 2048, margin: 1, dark: '000000', light: 'ffffff' },
  ])('draws the same pixels as the qrcode package: %j', async (drawing) => {
    const ours = PNG.sync.read(await qrPng(modules, drawing));
    const theirs = await reference(drawing);
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    expect(Buffer.compare(ours.data, theirs.data)).toBe(0);
  });

  it('is a two-colour palette image of one bit a pixel, a fraction of the RGBA bytes', async () => {
    const png = await qrPng(modules, { width: 2048, margin: 4, dark: '000000', light: 'ffffff' });
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2048, 2048]);
    // Bit depth 1, colour type 3 (palette).
    expect([png[24], png[25]]).toEqual([1, 3]);
    expect(png.subarray(37, 41).toString('latin1')).toBe('PLTE');
    expect(png.subarray(41, 47).toString('hex')).toBe('ffffff000000');
    expect(png.length).toBeLessThan(64 * 1024);
  });
});

/** The text a camera would read from the PNG, and its pixels. */
function decoded(png: Buffer): { text: string | null; image: PNG } {
  const image = PNG.sync.read(png);
  return { text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null, image };
}

/** A logo of `width` by `height`: a red disc on a transparent ground. */
function discLogo(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const radius = Math.min(width, height) / 2;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      if ((x + 0.5 - width / 2) ** 2 + (y + 0.5 - height / 2) ** 2 <= radius ** 2) {
        data.set([220, 30, 40, 255], (y * width + x) * 4);
      }
    }
  }
  return { width, height, data };
}

function symbolOf(text: string, ecc: 'L' | 'M' | 'Q' | 'H') {
  const code = create(text, { errorCorrectionLevel: ecc });
  const { size, data, reservedBit } = code.modules;
  return { modules: { size, data, reserved: reservedBit }, version: code.version };
}

describe('qrPng, styled', () => {
  it.each([
    { ecc: 'L', style: 'rounded', width: 256, margin: 4, dark: '000000', light: 'ffffff' },
    { ecc: 'M', style: 'rounded', width: 300, margin: 0, dark: '1a2b3c', light: 'fafafa' },
    { ecc: 'Q', style: 'rounded', width: 600, margin: 16, dark: '202020', light: 'ffee00' },
    { ecc: 'H', style: 'rounded', width: 512, margin: 2, dark: '003366', light: 'ffffff' },
    { ecc: 'H', style: 'square', width: 200, margin: 1, dark: '000000', light: 'dddddd' },
  ] as const)('reads back as its text: %j', async ({ ecc, ...drawing }) => {
    const png = await qrPng(symbolOf(TEXT, ecc).modules, drawing);
    const { text, image } = decoded(png);
    expect(text).toBe(TEXT);
    expect([png[24], png[25]]).toEqual([1, 3]);
    expect(image.width).toBe(drawing.width);
  });

  it('cuts a rounded module’s free corners and keeps the finders square', async () => {
    const size = 21;
    const data = new Uint8Array(size * size);
    const reserved = new Uint8Array(size * size);
    // A lone data module, and a lone reserved one.
    data[10 * size + 10] = 1;
    data[14 * size + 14] = 1;
    reserved[14 * size + 14] = 1;
    const scale = 10;
    const image = PNG.sync.read(
      await qrPng(
        { size, data, reserved },
        { width: size * scale, margin: 0, dark: '000000', light: 'ffffff', style: 'rounded' },
      ),
    );
    const darkAt = (x: number, y: number) => image.data[(y * image.width + x) * 4] === 0;
    // The dot: its middle dark, its corner pixel light.
    expect(darkAt(105, 105)).toBe(true);
    expect(darkAt(100, 100)).toBe(false);
    expect(darkAt(109, 109)).toBe(false);
    expect(darkAt(100, 105)).toBe(true);
    // The reserved module: a full square.
    expect(darkAt(140, 140)).toBe(true);
    expect(darkAt(149, 149)).toBe(true);
  });

  it.each([
    { ecc: 'H', style: 'square', width: 256, margin: 4 },
    { ecc: 'Q', style: 'rounded', width: 512, margin: 1 },
    { ecc: 'H', style: 'rounded', width: 640, margin: 8 },
  ] as const)(
    'draws a logo in the middle, in its colours, and still reads: %j',
    async ({ ecc, ...drawing }) => {
      const text = 'https://links.example-company.com/spring-sale';
      const { modules, version } = symbolOf(text, ecc);
      const box = logoBox({ ...modules, reserved: modules.reserved, version }, ecc)!;
      const logo = { image: discLogo(90, 60), box };
      const png = await qrPng(withoutBox(modules, box), {
        ...drawing,
        dark: '000000',
        light: 'ffffff',
        logo,
      });
      // Eight bits a channel of RGB: the logo brings its own colours.
      expect([png[24], png[25]]).toEqual([8, 2]);
      const { text: read, image } = decoded(png);
      expect(read).toBe(text);
      const middle = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
      expect([...image.data.subarray(middle, middle + 3)]).toEqual([220, 30, 40]);
      // The logo's transparent corners show the light colour.
      const scale = drawing.width / (modules.size + drawing.margin * 2);
      const corner = Math.ceil((drawing.margin + box.start + 0.5) * scale) + 1;
      const at = (corner * image.width + corner) * 4;
      expect([...image.data.subarray(at, at + 3)]).toEqual([255, 255, 255]);
    },
  );
});
