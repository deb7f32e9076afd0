import { create, toString } from 'qrcode';
import { withoutBox, type QrModules } from './modules';
import { qrSvg, type SvgDrawing } from './svg';

const TEXT = 'https://sho.rt/Ab3_x-9';

function modulesOf(text: string, ecc: 'L' | 'M' | 'Q' | 'H' = 'M'): QrModules {
  const { size, data, reservedBit } = create(text, { errorCorrectionLevel: ecc }).modules;
  return { size, data, reserved: reservedBit };
}

const SQUARE: SvgDrawing = {
  width: 256,
  margin: 4,
  dark: '000000',
  light: 'ffffff',
  style: 'square',
  logo: null,
};

describe('qrSvg', () => {
  it.each([
    { width: 256, margin: 4, dark: '000000', light: 'ffffff', ecc: 'M' },
    { width: 300, margin: 0, dark: '1a2b3c', light: 'fafafa', ecc: 'L' },
    { width: 2048, margin: 16, dark: 'ff0000', light: '00ff00', ecc: 'H' },
    { width: 64, margin: 1, dark: '000000', light: 'ffffff', ecc: 'Q' },
  ] as const)('draws a square code as the qrcode package writes it, byte for byte: %j', async (drawing) => {
    const theirs = await toString(TEXT, {
      type: 'svg',
      errorCorrectionLevel: drawing.ecc,
      width: drawing.width,
      margin: drawing.margin,
      color: { dark: `#${drawing.dark}ff`, light: `#${drawing.light}ff` },
    });
    expect(qrSvg(modulesOf(TEXT, drawing.ecc), { ...SQUARE, ...drawing })).toBe(theirs);
  });

  it('draws rounded modules as one filled path of arcs, a shape a run, left to anti-aliasing', () => {
    const svg = qrSvg(modulesOf(TEXT), { ...SQUARE, style: 'rounded', dark: '1a2b3c' });
    expect(svg).not.toContain('shape-rendering');
    const path = /<path fill="#1a2b3c" d="([^"]+)"\/>/.exec(svg)![1];
    expect(path).toMatch(/^[MmHhVvAaZz0-9 .-]+$/);
    // Each horizontal run of dark modules is a closed shape; the finders stay square (their top run has no arc).
    const { size, data } = modulesOf(TEXT);
    const runs = data.reduce(
      (count, value, index) => count + (value && (index % size === 0 || !data[index - 1]) ? 1 : 0),
      0,
    );
    expect(path.match(/M/g)!.length).toBe(runs);
    expect(path.startsWith('M4 4h7v1h-7v-1z')).toBe(true);
    expect(path).toContain('a.5 .5 0 0 1');
  });

  it('rounds every corner of a lone data module into a dot, and none where neighbours join it', () => {
    // A 21-module code with one dark data module in the middle, and a run of three below it.
    const size = 21;
    const data = new Uint8Array(size * size);
    const reserved = new Uint8Array(size * size);
    data[10 * size + 10] = 1;
    for (const column of [9, 10, 11]) data[12 * size + column] = 1;
    const svg = qrSvg({ size, data, reserved }, { ...SQUARE, margin: 0, style: 'rounded' });
    const path = /<path fill="#000000" d="([^"]+)"\/>/.exec(svg)![1];
    const [dot, pill] = path.split('z').filter((part) => part !== '');
    expect(dot).toBe(
      'M10.5 10a.5 .5 0 0 1 0.5 0.5a.5 .5 0 0 1 -0.5 0.5a.5 .5 0 0 1 -0.5 -0.5a.5 .5 0 0 1 0.5 -0.5',
    );
    // The run of three: straight along the middle, half circles at its ends.
    expect(pill).toBe(
      'M9.5 12h2a.5 .5 0 0 1 0.5 0.5a.5 .5 0 0 1 -0.5 0.5h-2a.5 .5 0 0 1 -0.5 -0.5a.5 .5 0 0 1 0.5 -0.5',
    );
  });

  it('embeds a logo as an image inside its box, with the box cleared of modules', () => {
    const modules = modulesOf(TEXT, 'H');
    const box = { start: 12, modules: 5 };
    const bytes = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const svg = qrSvg(withoutBox(modules, box), {
      ...SQUARE,
      logo: { contentType: 'image/svg+xml', bytes, box },
    });
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" xmlns:xlink="http:\/\/www\.w3\.org\/1999\/xlink" /,
    );
    // Half a module of padding inside the box, offset by the quiet zone.
    expect(svg).toContain(
      `<image x="16.5" y="16.5" width="4" height="4" preserveAspectRatio="xMidYMid meet" ` +
        `xlink:href="data:image/svg+xml;base64,${bytes.toString('base64')}"/></svg>\n`,
    );
    const withLogo = qrSvg(withoutBox(modules, box), SQUARE);
    const without = qrSvg(modules, SQUARE);
    expect(withLogo).not.toBe(without);
  });
});
