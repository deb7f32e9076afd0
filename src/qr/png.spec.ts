import { PNG } from 'pngjs';
import { create, toBuffer } from 'qrcode';
import { qrPng, type PngDrawing } from './png';

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
